/** The agent id Claude Code's adapter goes by (stored in the index, shown as the agent badge). */
export const CLAUDE_CODE = 'claude-code';
export const CLAUDE_CODE_LABEL = 'Claude Code';
