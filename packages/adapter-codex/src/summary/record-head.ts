/**
 * The envelope of a rollout line read from its first bytes, without parsing the line. Codex writes
 * records with serde_json in a fixed key order — `timestamp`, `ordinal` (2026), `type`, `payload` —
 * and the payload of an event or item starts with its own `type`. Inside a JSON string a quote is
 * always escaped, so this unescaped prefix can only be the record's structure.
 */
const ENVELOPE = /^\{"timestamp":"([^"\\]*)",(?:"ordinal":\d+,)?"type":"([a-z_]+)","payload":\{(?:"type":"([a-z_]+)")?/;

export interface RecordHead {
  timestamp: string;
  type: string;
  /** The payload's `type` (the event or item kind), when the payload starts with it. */
  sub: string | null;
}

export function recordHead(text: string): RecordHead | null {
  const m = ENVELOPE.exec(text);
  if (!m) return null;
  return { timestamp: m[1] as string, type: m[2] as string, sub: m[3] ?? null };
}
