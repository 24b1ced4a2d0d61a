import type { Migration } from './migrations';

/**
 * Migration 7: the search text of every session also holds its replies and the heads of its tool
 * results (within a budget per file, core's SEARCH_LIMITS), not only its prompts, paths and commands.
 * The summaries made before lack them: every file is read again once, from the start, which drops
 * and rewrites its search rows.
 */
export const SEARCH_REPLIES_MIGRATION: Migration = {
  version: 7,
  name: 'search holds replies and tool results',
  sql: `
UPDATE files SET level = 1 WHERE level = 2;
DELETE FROM file_state;
`,
};
