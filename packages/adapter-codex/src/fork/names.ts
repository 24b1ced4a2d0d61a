import { sessionIdFromFileName } from '../discover-names';

/**
 * The fork's file name: the original's time stamp with the new id, so that it lies beside the
 * original in the same `sessions/YYYY/MM/DD/` folder and Codex finds it by id.
 */
export function forkFileName(originalName: string, newSessionId: string): string | null {
  const id = sessionIdFromFileName(originalName);
  if (!id) return null;
  return originalName.slice(0, originalName.length - '.jsonl'.length - id.length) + newSessionId + '.jsonl';
}

/** The command that resumes a session in the Codex CLI. */
export function resumeCommand(sessionId: string): string {
  return `codex resume ${sessionId}`;
}
