/** Response item types by role in the conversation. */
export const ASSISTANT_ITEMS = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call', 'image_generation_call']);
export const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output', 'mcp_tool_call_output']);
/** Items Codex records but does not send to the model. */
export const CLIENT_ONLY_ITEMS = new Set(['ghost_snapshot']);
/** The prefix Codex puts before a compaction summary it sends as a user message. */
const SUMMARY_PREFIX = 'Another language model started to solve this problem';

/** Context Codex injects as user messages: environment, AGENTS.md, user instructions, turn aborts. */
function isContextText(text: string): boolean {
  const t = text.trimStart();
  return (
    t.startsWith('<environment_context>') ||
    t.startsWith('<user_instructions>') ||
    t.startsWith('# AGENTS.md instructions') ||
    t.startsWith('<turn_aborted>') ||
    t.startsWith('<user_shell_command>') ||
    t.startsWith('<skill>')
  );
}

/** How much of a prompt is kept as its preview (the session's first prompt, the cost table's turns). */
export const PROMPT_PREVIEW_CHARS = 400;

/**
 * What a `message` item is in the conversation. The one rule the parser and the list's summary share:
 * a user message is a prompt unless it is a compaction summary, context Codex injected, or a copy
 * carried in a compaction's replacement history.
 */
export type MessageRole = 'assistant' | 'prompt' | 'summary' | 'context';

export function messageRole(role: string, text: string, carried: boolean): MessageRole {
  if (role === 'assistant') return 'assistant';
  if (role === 'user' && text.startsWith(SUMMARY_PREFIX)) return 'summary';
  if (role === 'user' && !carried && !isContextText(text)) return 'prompt';
  return 'context';
}
