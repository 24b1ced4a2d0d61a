// Test helper: runs the CLI in-process and captures what it prints.
import { main } from '../main';
import type { CliIO } from '../io';

export interface Ran {
  code: number;
  out: string;
  err: string;
}

/** How the captured output looks to the CLI: a terminal (colour on) or a pipe (the default). */
export interface RunAs {
  color?: boolean;
  isTTY?: boolean;
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv, as: RunAs = {}): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  // Tests never look at the machine's own Codex sessions unless they name a CODEX_HOME.
  const io: CliIO = { out: (t) => out.push(t), err: (t) => err.push(t), env: { CODEX_HOME: '/nonexistent/glassbox-test-codex-home', ...env }, color: as.color ?? false, isTTY: as.isTTY ?? false, exitCode: 0 };
  const code = await main(['node', 'glassbox', ...args], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
