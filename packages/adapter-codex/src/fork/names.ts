/**
 * The command that resumes a session in the Codex CLI. Codex finds the rollout by id under
 * `$CODEX_HOME/sessions` from any folder, but a resume from another folder adds a new
 * `<environment_context>` to the request: changing into the session's folder first keeps it as it was.
 */
export function resumeCommand(sessionId: string, cwd: string | null = null): string {
  // Every part quoted: an id from a copied archive could hold `$(…)`, and this line is pasted into a shell.
  return cwd ? `cd ${shellQuote(cwd)} && codex resume ${shellQuote(sessionId)}` : `codex resume ${shellQuote(sessionId)}`;
}

/** A word the shell takes as it is: plain characters left bare, anything else (a leading `-` too) in single quotes. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=][A-Za-z0-9_./:@%+=-]*$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
