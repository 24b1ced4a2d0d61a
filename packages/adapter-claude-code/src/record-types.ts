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

// The JSON reading helpers are shared by every adapter (core).
export { isObject, num, str, type Json, type JsonObject } from '@glassbox/core';
