/**
 * Which model a version of Claude Code uses for the next request of a resumed session, and how it
 * sends reminders on it (docs/claude-code/what-the-client-sends.md). Facts from each client's own
 * tables; the model facts themselves (windows, prices) are data in models/catalogue.ts.
 */
import { findModel } from '@glassbox/core';
import { CLAUDE_MODELS } from '../models/catalogue';
import { TYPES_KNOWN_TO_2_1_197 } from '../parse/attachments';

/** What one version of the client decides about the model of a resumed session. */
export interface ClientRules {
  /** The version these rules were read from. */
  version: string;
  /** Its default model (first-party API), used when the session's own cannot be restored. */
  defaultModel: string;
  /** Model families its catalogue knows: a session on any other is not restored (but see `restoresNamedModels`). */
  families: ReadonlySet<string>;
  /** Families it will not resume on: remapped to a newer model (always), or retired from a day on (ISO, UTC). */
  retired: ReadonlyMap<string, { from?: string; why: string }>;
  /**
   * 2.1.33x: a reply's model the catalogue does not know is still restored when the last `model`
   * attachment of the loaded conversation names one (the model the session ran on), and a reply served
   * by a fallback model counts as the model it stood in for (`inPlaceOfModel`).
   */
  restoresNamedModels: boolean;
  /**
   * 2.1.33x renders a task or todo reminder it did not record the text of only when the request's model
   * is one of the older families (whose client still offers the todo tools).
   */
  todoRemindersOnlyOnOlderModels: boolean;
  /**
   * Attachment types it can render, when it ignores the renderings newer clients record (2.1.197):
   * it drops any other type. Null: it sends what was recorded.
   */
  attachmentTypes: ReadonlySet<string> | null;
}

const FAMILIES_2_1_197 = [
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
  'claude-mythos-5',
];

/** 2.1.332's catalogue: every model the adapter's catalogue copies from it (the Claude 3 entries excepted). */
const FAMILIES_2_1_332 = CLAUDE_MODELS.models.map((m) => m.id).filter((id) => id !== 'claude-3-opus' && id !== 'claude-3-haiku');

const REMAP = 'remapped to the latest Opus';

export const CLIENT_2_1_197: ClientRules = {
  version: '2.1.197',
  defaultModel: 'claude-opus-4-8',
  families: new Set(FAMILIES_2_1_197),
  retired: new Map([
    ['claude-opus-4-0', { why: REMAP }],
    ['claude-opus-4-1', { why: REMAP }],
    ['claude-sonnet-4-0', { from: '2026-06-15', why: 'retired on 2026-06-15' }],
    ['claude-3-opus', { from: '2026-01-05', why: 'retired on 2026-01-05' }],
    ['claude-3-7-sonnet', { from: '2026-02-19', why: 'retired on 2026-02-19' }],
    ['claude-3-5-haiku', { from: '2026-02-19', why: 'retired on 2026-02-19' }],
  ]),
  restoresNamedModels: false,
  todoRemindersOnlyOnOlderModels: false,
  attachmentTypes: TYPES_KNOWN_TO_2_1_197,
};

export const CLIENT_2_1_332: ClientRules = {
  version: '2.1.332',
  defaultModel: 'claude-opus-5-5',
  families: new Set(FAMILIES_2_1_332),
  retired: new Map([
    ['claude-opus-4-0', { why: REMAP }],
    ['claude-opus-4-1', { why: REMAP }],
    ['claude-opus-4-5', { from: '2027-01-22', why: 'retired on 2027-01-22' }],
    ['claude-sonnet-4-5', { from: '2026-11-30', why: 'retired on 2026-11-30' }],
    ['claude-sonnet-4-0', { from: '2026-06-15', why: 'retired on 2026-06-15' }],
    ['claude-3-opus', { from: '2026-01-05', why: 'retired on 2026-01-05' }],
    ['claude-3-7-sonnet', { from: '2026-02-19', why: 'retired on 2026-02-19' }],
    ['claude-3-5-sonnet', { from: '2025-10-28', why: 'retired on 2025-10-28' }],
    ['claude-3-5-haiku', { from: '2026-02-19', why: 'retired on 2026-02-19' }],
  ]),
  restoresNamedModels: true,
  todoRemindersOnlyOnOlderModels: true,
  attachmentTypes: null,
};

/** The client versions whose rules are known, oldest first. */
export const CLIENTS: readonly ClientRules[] = [CLIENT_2_1_197, CLIENT_2_1_332];

/** The newest client Glassbox knows: the one people run, assumed when no version is named. */
export const NEWEST_CLIENT: ClientRules = CLIENTS[CLIENTS.length - 1] as ClientRules;

function versionParts(v: string): number[] {
  return (/^(\d+)\.(\d+)\.(\d+)/.exec(v) ?? []).slice(1).map(Number);
}

function compareVersions(a: string, b: string): number {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The rules of a client version: those of the newest known version not newer than it (a version
 * between two known ones behaves as the older until shown otherwise), the oldest for anything older.
 */
export function clientRules(version: string | undefined): ClientRules {
  if (version === undefined || versionParts(version).length < 3) return NEWEST_CLIENT;
  let rules = CLIENTS[0] as ClientRules;
  for (const c of CLIENTS) if (compareVersions(c.version, version) <= 0) rules = c;
  return rules;
}

/** Families that take reminders inside the user message (tool result) rather than as system messages (both versions). */
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
  const known = findModel(CLAUDE_MODELS, model);
  if (known) return known.id;
  const m = model.toLowerCase().replace(/\[[0-9]+m\]$/, '');
  if (/claude-opus-4(?!-\d(?!\d))/.test(m)) return 'claude-opus-4-0';
  if (/claude-sonnet-4(?!-\d(?!\d))/.test(m)) return 'claude-sonnet-4-0';
  return m.replace(/-\d{8}$/, '');
}

/** Why this client would not resume a session on this model at `now`, or null when it would. */
export function whyNotResumable(model: string, now: Date, rules: ClientRules = NEWEST_CLIENT): string | null {
  const family = modelFamily(model);
  if (!rules.families.has(family) && family !== modelFamily(rules.defaultModel)) return `not a model Claude Code ${rules.version} knows`;
  return retiredBy(family, now, rules);
}

/** Why the client will not resume on a known family at `now` (remapped or retired), or null. */
export function retiredBy(family: string, now: Date, rules: ClientRules): string | null {
  const retired = rules.retired.get(family);
  if (retired && (retired.from === undefined || now.getTime() >= Date.parse(`${retired.from}T00:00:00Z`))) return retired.why;
  return null;
}

/** On this model the client sends reminders as separate system messages (the mid-conversation system beta). */
export function remindersAsSystemMessages(model: string): boolean {
  const family = modelFamily(model);
  if (family.startsWith('claude-3-')) return false;
  return !JOINS_REMINDERS.has(family);
}
