// The text of one item of a rollout, read back from its line for a reader (the conversation view and
// its export): the parser keeps only sizes and previews, so the text comes from the line on demand.
import { contentText, outputText } from './blocks';
import { isObject, parseObject, str, type Json, type JsonObject } from './json';

/**
 * A block of a rollout line as a person reads it: a message's text part, reasoning's readable summary,
 * a call's arguments (one `field: value` line each) or a patch, an output's text. Null when the line
 * holds no item this can read (then the preview stands).
 */
export function rolloutBlockText(line: string, blockIndex: number, uuid?: string): string | null {
  const record = parseObject(line);
  if (!record) return null;
  // Every generation: the item is the record's payload, or the record itself (the oldest rollouts).
  const payload = isObject(record['payload']) ? record['payload'] : record;
  const item = historyItem(payload, uuid) ?? payload;
  switch (str(item['type'])) {
    case 'message': {
      const content = item['content'];
      if (!Array.isArray(content)) return contentText(content);
      const part = content[blockIndex];
      return isObject(part) ? (str(part['text']) ?? str(part['refusal']) ?? null) : null;
    }
    case 'reasoning':
      return blockIndex === 0 ? reasoningText(item) : null;
    case 'function_call':
      return argumentsText(str(item['arguments']) ?? '');
    case 'custom_tool_call':
      return str(item['input']) ?? null;
    case 'local_shell_call':
      return fieldsText(isObject(item['action']) ? item['action'] : {});
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'mcp_tool_call_output':
    case 'tool_search_output':
      return outputText(item['output']);
    default:
      return null;
  }
}

/**
 * An item of a compaction's replacement history: the parser names the i-th `L<line>.<i>`, all on the
 * `compacted` line, so the node's id says which one the block is of.
 */
function historyItem(payload: JsonObject, uuid: string | undefined): JsonObject | null {
  const history = payload['replacement_history'];
  const at = uuid === undefined ? null : /^L\d+\.(\d+)$/.exec(uuid);
  if (!at || !Array.isArray(history)) return null;
  const entry = history[Number(at[1])];
  return isObject(entry) ? entry : null;
}

function reasoningText(item: JsonObject): string | null {
  const parts: string[] = [];
  for (const list of [item['summary'], item['content']]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (isObject(p)) parts.push(str(p['text']) ?? '');
  }
  const text = parts.join('\n');
  return text === '' ? null : text;
}

/** A call's JSON arguments as fields; arguments that are not a JSON object as they are. */
function argumentsText(args: string): string {
  try {
    const v = JSON.parse(args) as Json;
    return isObject(v) ? fieldsText(v) : args;
  } catch {
    return args;
  }
}

function fieldsText(o: JsonObject): string {
  return Object.entries(o)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}
