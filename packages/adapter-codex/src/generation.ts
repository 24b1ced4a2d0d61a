import { isObject, str, type JsonObject } from './json';

/**
 * The rollout generations Codex has written (docs/codex/format.md, "Generations"):
 * - `bare` (mid 2025): line 1 a bare header `{id, timestamp, instructions?, git?}`, then bare
 *   Responses API items and `{"record_type":"state"}` markers; no `session_meta`, no events.
 * - `envelope` (late 2025, e.g. 0.57/0.58): `{timestamp, type, payload}` records, `session_meta` first.
 * - `paginated` (2026, e.g. 0.169): the same envelope with an `ordinal` on every record.
 */
export type Generation = 'bare' | 'envelope' | 'paginated';

const ENVELOPE_TYPES: ReadonlySet<string> = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
  'world_state',
  'token_usage_record',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'security_risk_score',
  'retained_context',
  'realtime_item',
]);

/** Types of the Responses API items Codex records. */
export const ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
  'tool_search_call',
  'tool_search_output',
  'mcp_tool_call_output',
  'ghost_snapshot',
  'compaction',
  'compaction_summary',
  'image_generation_call',
]);

export type Recognition =
  | { kind: 'codex'; generation: Generation }
  | { kind: 'unknown-generation'; reason: string }
  | { kind: 'claude-code' }
  | { kind: 'other'; reason: string };

/** What the first record of a file says it is. */
export function recogniseFirstRecord(r: JsonObject): Recognition {
  if ('parentUuid' in r || 'sessionId' in r || 'leafUuid' in r || ('uuid' in r && 'message' in r)) return { kind: 'claude-code' };
  const type = str(r['type']);
  if (type !== undefined && ENVELOPE_TYPES.has(type) && 'payload' in r) {
    if (type !== 'session_meta' || !isObject(r['payload']) || typeof r['payload']['id'] !== 'string') {
      return { kind: 'unknown-generation', reason: `the first record is "${type}" in Codex's envelope, but not a session_meta with an id` };
    }
    return { kind: 'codex', generation: typeof r['ordinal'] === 'number' ? 'paginated' : 'envelope' };
  }
  if (type === undefined && typeof r['id'] === 'string' && typeof r['timestamp'] === 'string' && !('payload' in r)) {
    return { kind: 'codex', generation: 'bare' };
  }
  if (type !== undefined && ITEM_TYPES.has(type)) {
    return { kind: 'unknown-generation', reason: `the first record is a bare "${type}" item with no session header before it` };
  }
  return { kind: 'other', reason: 'the first record is neither a Codex session header nor a Codex record' };
}

/** One rollout record in the shape of the envelope generations, whatever the file's generation. */
export interface RolloutRecord {
  type: string;
  payload: JsonObject;
  timestamp?: string;
  ordinal?: number;
}

export function normaliseRecord(r: JsonObject, generation: Generation, isFirst: boolean): RolloutRecord | null {
  if (generation !== 'bare') {
    const type = str(r['type']);
    const payload = r['payload'];
    if (type === undefined || !isObject(payload)) return null;
    const out: RolloutRecord = { type, payload };
    const ts = str(r['timestamp']);
    if (ts) out.timestamp = ts;
    if (typeof r['ordinal'] === 'number') out.ordinal = r['ordinal'];
    return out;
  }
  if (isFirst) {
    const out: RolloutRecord = { type: 'session_meta', payload: r };
    const ts = str(r['timestamp']);
    if (ts) out.timestamp = ts;
    return out;
  }
  if (r['record_type'] === 'state') return { type: 'state', payload: r };
  if (typeof r['type'] === 'string') return { type: 'response_item', payload: r };
  return null;
}
