/**
 * run_shell_command's output carries the process group of each run ("Process Group PGID: 30453"),
 * and from 0.5x an `<untrusted_context>` wrapper: two runs of one command with the same output differ
 * only in that number. Duplicates are found on the output without it, as the model reads the rest.
 */
const PGID_LINE = /^(?:Process Group PGID|Background PIDs): .*$/gm;

export function hashableOutput(text: string): string {
  return text.includes('PGID') || text.includes('Background PIDs') ? text.replace(PGID_LINE, '') : text;
}

/** The exit code a shell output reports ("Exit Code: 3"), null when it reports none (success). */
export function exitCodeOf(text: string): number | null {
  const m = /^Exit Code: (-?\d+)$/m.exec(text);
  return m ? Number(m[1]) : null;
}
