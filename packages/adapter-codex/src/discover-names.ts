/** `rollout-2026-12-01T03-03-21-<uuid>.jsonl` → the uuid (the thread id Codex named the file after). */
export function sessionIdFromFileName(name: string): string | null {
  const m = /^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name);
  return m ? (m[1] as string) : null;
}

/** Whether a file name is one Codex gives a rollout. */
export function isRolloutFileName(name: string): boolean {
  return sessionIdFromFileName(name) !== null;
}
