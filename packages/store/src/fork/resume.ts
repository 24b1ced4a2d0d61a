import { existsSync, statSync } from 'node:fs';

/**
 * How to resume a session (a fork, a restored original) in Claude Code, from a folder that exists.
 * Claude Code finds `--resume <id>` only under the project folder of the directory it runs in, so
 * from the recorded working directory the id is enough; from a mapped folder (a moved checkout) the
 * session is named by its file, which works from anywhere. When neither folder exists there is no
 * command that works, and the note says so instead.
 */
export interface ResumeInstruction {
  /** The command to paste, or null when no folder to run it from exists here. */
  command: string | null;
  /** The folder the command runs in. */
  folder: string | null;
  /** Why the command looks the way it does, or why there is none. */
  note: string | null;
}

export interface ResumeInput {
  /** The working directory recorded in the session. */
  cwd: string | null;
  /** The folder it is mapped to on this machine (null or equal to cwd: none). */
  mapped: string | null;
  sessionId: string;
  sessionPath: string;
  /** The agent's own resume command for a session (an id, or a quoted file path) run from a folder. */
  command: (sessionRef: string, cwd: string | null) => string;
  isDir?: (path: string) => boolean;
}

export function resumeInstruction(input: ResumeInput): ResumeInstruction {
  const isDir = input.isDir ?? defaultIsDir;
  const { cwd, sessionId, sessionPath } = input;
  const mapped = input.mapped && input.mapped !== cwd ? input.mapped : null;
  if (!cwd) return { command: input.command(sessionId, null), folder: null, note: 'no working directory is recorded: run it from the project folder' };
  if (isDir(cwd)) return { command: input.command(sessionId, cwd), folder: cwd, note: null };
  if (mapped && isDir(mapped)) {
    return {
      command: input.command(shellQuote(sessionPath), mapped),
      folder: mapped,
      note: `${cwd} is not on this machine; from the folder it is mapped to, the session is named by its file (Claude Code finds a session id only under the folder it ran in)`,
    };
  }
  return {
    command: null,
    folder: null,
    note: mapped
      ? `neither ${cwd} nor the folder it is mapped to (${mapped}) exists on this machine: map the project to a folder that exists, then resume ${sessionPath}`
      : `${cwd} is not on this machine: map it to the folder that holds the project now (--repo, or "Map it to a folder…" in the app), then resume ${sessionPath}`,
  };
}

function defaultIsDir(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
