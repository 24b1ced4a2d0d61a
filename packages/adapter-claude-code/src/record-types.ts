/** Record types Claude Code writes (observed, or known to its loader). Anything else is counted as unknown. */
export const KNOWN_RECORD_TYPES: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'attachment',
  'system',
  'progress',
  'summary',
  'queue-operation',
  'last-prompt',
  'mode',
  'permission-mode',
  'ai-title',
  'custom-title',
  'file-history-snapshot',
  'tag',
  'relocated',
  'agent-name',
  'agent-color',
  'agent-setting',
  'isolation-latch',
  'worktree-state',
  'pr-link',
  'bridge-session',
  'attribution-snapshot',
  'content-replacement',
  'fork-context-ref',
  'speculation-accept',
  'marble-origami-commit',
  'marble-origami-snapshot',
  'marble-origami-reset',
]);

/** Types whose records carry a conversation message. */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'attachment', 'system']);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
