/**
 * The envelope of a rollout line read from its first bytes, without parsing the line. Codex writes
 * records with serde_json in a fixed key order — `timestamp`, `ordinal` (2026), `type`, `payload` —
 * and the payload of an event or item starts with its own `type`. Inside a JSON string a quote is
 * always escaped, so this unescaped prefix can only be the record's structure.
 */
const ENVELOPE = /^\{"timestamp":"([^"\\]*)",(?:"ordinal":(\d+),)?"type":"([a-z_]+)","payload":\{(?:"type":"([a-z_]+)")?/;

export interface RecordHead {
  timestamp: string;
  type: string;
  /** The payload's `type` (the event or item kind), when the payload starts with it. */
  sub: string | null;
  /** The record's number (2026 rollouts), or null. */
  ordinal: number | null;
}

export function recordHead(text: string): RecordHead | null {
  const m = ENVELOPE.exec(text);
  if (!m) return null;
  return { timestamp: m[1] as string, type: m[3] as string, sub: m[4] ?? null, ordinal: m[2] === undefined ? null : Number(m[2]) };
}

/** Record types neither the parser nor the summary reads: client state, never sent to the model. */
const UNREAD_TYPES = new Set(['world_state', 'token_usage_record', 'inter_agent_communication', 'inter_agent_communication_metadata', 'security_risk_score', 'retained_context', 'realtime_item']);
/** The events that are read (usage, the thread's name); every other event is a UI copy. */
const READ_EVENTS = new Set(['token_count', 'thread_name_updated']);

/**
 * Whether a record can be passed over without parsing it: UI events (among them the second copies of
 * every command output) and client state. Only a line that looks whole is passed over; Codex, too,
 * never sends these records to the model.
 */
export function isUnreadRecord(head: RecordHead, text: string): boolean {
  if (!text.endsWith('}')) return false;
  return UNREAD_TYPES.has(head.type) || (head.type === 'event_msg' && head.sub !== null && !READ_EVENTS.has(head.sub));
}
