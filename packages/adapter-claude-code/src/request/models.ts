/**
 * Which model Claude Code 2.1.197 uses for the next request of a resumed session, and how it sends
 * reminders on it (docs/claude-code/what-the-client-sends.md). Facts from the client's own tables.
 */

/** The model 2.1.197 uses when none is named and the session's own cannot be restored (first-party API). */
export const CLIENT_DEFAULT_MODEL = 'claude-opus-4-8';

/** Model families in 2.1.197's catalog: a session on any other family is not restored. */
const KNOWN_FAMILIES = new Set([
  'claude-3-5-haiku',
  'claude-haiku-4-5',
  'claude-3-5-sonnet',
  'claude-3-7-sonnet',
  'claude-sonnet-4-0',
  'claude-sonnet-4-5',
  'claude-sonnet-4-6',
  'claude-sonnet-5',
  'claude-opus-4-0',
  'claude-opus-4-1',
  'claude-opus-4-5',
  'claude-opus-4-6',
  'claude-opus-4-7',
  'claude-opus-4-8',
  'claude-fable-5',
]);

/**
 * Families the client will not resume on (first-party API): remapped to a newer model (always), or
 * retired from a date on. Dates are the client's, as ISO days.
 */
const RETIRED: ReadonlyMap<string, { from?: string; why: string }> = new Map([
  ['claude-opus-4-0', { why: 'remapped to the latest Opus' }],
  ['claude-opus-4-1', { why: 'remapped to the latest Opus' }],
  ['claude-sonnet-4-0', { from: '2026-06-15', why: 'retired on 2026-06-15' }],
  ['claude-3-opus', { from: '2026-01-05', why: 'retired on 2026-01-05' }],
  ['claude-3-7-sonnet', { from: '2026-02-19', why: 'retired on 2026-02-19' }],
  ['claude-3-5-haiku', { from: '2026-02-19', why: 'retired on 2026-02-19' }],
]);

/** Families that take reminders inside the user message (tool result) rather than as system messages. */
const JOINS_REMINDERS = new Set([
  'claude-opus-4-0',
  'claude-opus-4-1',
  'claude-opus-4-5',
  'claude-opus-4-6',
  'claude-opus-4-7',
  'claude-sonnet-4-0',
  'claude-sonnet-4-5',
  'claude-sonnet-4-6',
  'claude-haiku-4-5',
]);

/** A model id's family, as the client reduces dated ids and aliases (`claude-sonnet-4-20250514` → `claude-sonnet-4-0`). */
export function modelFamily(model: string): string {
  const m = model.toLowerCase().replace(/\[[0-9]+m\]$/, '');
  const named = ['claude-fable-5', 'claude-mythos-5', 'claude-opus-4-8', 'claude-opus-4-7', 'claude-opus-4-6', 'claude-opus-4-5', 'claude-opus-4-1'];
  for (const n of named) if (m.includes(n)) return n;
  if (/claude-opus-4(?!-\d(?!\d))/.test(m)) return 'claude-opus-4-0';
  for (const n of ['claude-sonnet-5', 'claude-sonnet-4-6', 'claude-sonnet-4-5']) if (m.includes(n)) return n;
  if (/claude-sonnet-4(?!-\d(?!\d))/.test(m)) return 'claude-sonnet-4-0';
  for (const n of ['claude-haiku-4-5', 'claude-3-7-sonnet', 'claude-3-5-sonnet', 'claude-3-5-haiku', 'claude-3-opus', 'claude-3-sonnet', 'claude-3-haiku']) {
    if (m.includes(n)) return n;
  }
  return m.replace(/-\d{8}$/, '');
}

/** Why the client would not resume a session on this model at `now`, or null when it would. */
export function whyNotResumable(model: string, now: Date): string | null {
  const family = modelFamily(model);
  if (!KNOWN_FAMILIES.has(family) && family !== modelFamily(CLIENT_DEFAULT_MODEL)) return 'not a model this client version knows';
  const retired = RETIRED.get(family);
  if (retired && (retired.from === undefined || now.getTime() >= Date.parse(`${retired.from}T00:00:00Z`))) return retired.why;
  return null;
}

/** On this model the client sends reminders as separate system messages (the mid-conversation system beta). */
export function remindersAsSystemMessages(model: string): boolean {
  const family = modelFamily(model);
  if (family.startsWith('claude-3-')) return false;
  return !JOINS_REMINDERS.has(family);
}
