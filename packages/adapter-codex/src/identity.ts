/** The agent id Codex's adapter goes by (stored in the index, shown as the agent badge). */
export const CODEX = 'codex';
export const CODEX_LABEL = 'Codex CLI';
