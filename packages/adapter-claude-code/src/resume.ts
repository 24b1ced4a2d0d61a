/**
 * How a person resumes a Claude Code session: the client looks for `<id>.jsonl` only in the projects
 * folder of the directory it runs in, so the command changes into the project first.
 */
export function resumeCommand(sessionId: string, cwd: string | null): string {
  return cwd ? `cd ${shellQuote(cwd)} && claude --resume ${sessionId}` : `claude --resume ${sessionId}`;
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
