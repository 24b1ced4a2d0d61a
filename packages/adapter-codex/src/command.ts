import { isObject, parseObject, str, type JsonObject } from './json';
import { unwrapShell } from './shell-words';

/**
 * The shell command a call ran, in the form the read grammar takes (a script), and the folder it ran
 * in. Codex's shell tools over time: `exec_command {cmd, workdir?}` (unified exec, 2026),
 * `shell_command {command: string, workdir?}`, `shell {command: argv, workdir?}` and the
 * `local_shell_call` item `{action: {exec: {command: argv, working_directory?}}}` (2025).
 */
export interface ShellCommand {
  /** The script as the shell sees it (argv without a `bash -lc` wrapper is joined with spaces). */
  script: string;
  /** Whether `script` is exactly what runs: false for an argv joined for display. */
  exact: boolean;
  workdir: string | null;
}

export const SHELL_TOOLS: ReadonlySet<string> = new Set(['exec_command', 'shell_command', 'shell', 'container.exec', 'local_shell']);

export function shellCommandOf(name: string, args: JsonObject | null): ShellCommand | null {
  if (!args) return null;
  const workdir = str(args['workdir']) ?? str(args['working_directory']) ?? null;
  if (name === 'exec_command') {
    const cmd = str(args['cmd']);
    return cmd === undefined ? null : { script: cmd, exact: true, workdir };
  }
  const command = args['command'];
  if (typeof command === 'string') return { script: command, exact: true, workdir };
  if (Array.isArray(command) && command.every((c): c is string => typeof c === 'string')) {
    const inner = unwrapShell(command);
    if (inner !== null) return { script: inner, exact: true, workdir };
    return { script: command.join(' '), exact: false, workdir };
  }
  return null;
}

/** The arguments object of a function call (Codex stores them as a JSON string). */
export function callArguments(item: JsonObject): JsonObject | null {
  const raw = item['arguments'];
  if (isObject(raw)) return raw;
  const text = str(raw);
  return text === undefined ? null : parseObject(text);
}

/** `local_shell_call` items carry their command in `action.exec`. */
export function localShellArgs(item: JsonObject): JsonObject | null {
  const action = item['action'];
  if (!isObject(action)) return null;
  const exec = isObject(action['exec']) ? action['exec'] : action;
  return isObject(exec) ? exec : null;
}
