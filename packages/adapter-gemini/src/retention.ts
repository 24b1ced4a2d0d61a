/**
 * Gemini CLI's session clean-up rule from the text of its settings files (pure; docs/gemini/format.md,
 * "Side effects of a start"). At every start in a project the client deletes that project's chats
 * whose `lastUpdated` is older than `general.sessionRetention.maxAge` and, with `maxCount`, all but the
 * newest that many — each with its subagent chats, saved tool outputs and activity log
 * (`cleanupExpiredSessions`, `identifySessionsToDelete`; the same code in v0.33–v0.56 and the 0.61
 * bundle). The clean-up is on by default with `maxAge: "30d"` since 0.33 (off before). Settings are
 * deep-merged in the client's order — schema defaults, system defaults, user, workspace (a trusted
 * folder only), system overrides — and a `sessionRetention` that fails the client's validation turns
 * the clean-up off ("Session cleanup disabled: …").
 */
import type { RetentionRule, RetentionSource } from '@glassbox/core';

const DEFAULT_MAX_AGE = '30d';
const DEFAULT_MIN_RETENTION = '1d';
const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS, m: 30 * DAY_MS };

type GeminiSettingsScope = 'system-defaults' | 'user' | 'workspace' | 'system';

/** One settings file as read: its text, or null when it does not exist. */
export interface GeminiSettingsText {
  scope: GeminiSettingsScope;
  file: string;
  text: string | null;
}

/** The client's `SessionRetentionSettings`, as merged. */
interface Retention {
  enabled?: unknown;
  maxAge?: unknown;
  maxCount?: unknown;
  minRetention?: unknown;
}

/** The client's `parseRetentionPeriod`: `<n><h|d|w|m>` with n > 0 (a month is 30 days), in ms; null when invalid. */
export function retentionPeriodMs(period: unknown): number | null {
  if (typeof period !== 'string') return null;
  const m = /^(\d+)([dhwm])$/.exec(period);
  if (!m) return null;
  const n = Number.parseInt(m[1] as string, 10);
  return n === 0 ? null : n * (UNIT_MS[m[2] as string] as number);
}

/**
 * JSON with `//` and `/* *\/` comments, as the client reads settings (it strips comments, then
 * `JSON.parse`). Comments are blanked outside strings; anything else is left to `JSON.parse`.
 */
export function parseSettingsText(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
      continue;
    }
    out += c;
  }
  return JSON.parse(out);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `general.sessionRetention` object one file writes, or why the file is not used. */
function readFile(s: GeminiSettingsText): { retention: Retention | null; problem: string | null } {
  if (s.text === null || s.text.trim() === '') return { retention: null, problem: null };
  let parsed: unknown;
  try {
    parsed = parseSettingsText(s.text);
  } catch (error) {
    return { retention: null, problem: `does not parse as JSON (${(error as Error).message}); Gemini CLI ignores it` };
  }
  if (!isRecord(parsed)) return { retention: null, problem: 'is not a JSON object; Gemini CLI ignores it' };
  const general = parsed['general'];
  const retention = isRecord(general) ? general['sessionRetention'] : undefined;
  return { retention: isRecord(retention) ? (retention as Retention) : null, problem: null };
}

const ORDER: readonly GeminiSettingsScope[] = ['system-defaults', 'user', 'workspace', 'system'];

/**
 * The rule for one start of the client in a project whose settings come from these files (any order:
 * they are merged in the client's). Mirrors `validateRetentionConfig` and `identifySessionsToDelete`.
 */
export function sessionRetentionRule(files: readonly GeminiSettingsText[]): RetentionRule {
  const read = [...files].sort((a, b) => ORDER.indexOf(a.scope) - ORDER.indexOf(b.scope)).map((f) => ({ f, ...readFile(f) }));
  const sources: RetentionSource[] = read.filter((r) => r.f.text !== null).map((r) => ({ file: r.f.file, problem: r.problem }));
  const merged: Retention = { enabled: true, maxAge: DEFAULT_MAX_AGE, minRetention: DEFAULT_MIN_RETENTION };
  const setBy: Partial<Record<keyof Retention, string>> = {};
  for (const r of read) {
    if (!r.retention) continue;
    for (const key of ['enabled', 'maxAge', 'maxCount', 'minRetention'] as const) {
      if (key in r.retention) {
        merged[key] = r.retention[key];
        setBy[key] = r.f.file;
      }
    }
  }
  const where = (key: keyof Retention) => (setBy[key] ? `in ${setBy[key]}` : 'by default');
  const never = (decidedBy: string): RetentionRule => ({ kind: 'never', decidedBy, sources, warning: null });
  if (!merged.enabled) return never(`general.sessionRetention.enabled is ${JSON.stringify(merged.enabled)} ${where('enabled')}: Gemini CLI's clean-up is off`);
  const disabled = (why: string) => never(`${why}, so Gemini CLI disables its clean-up ("Session cleanup disabled")`);
  let maxAgeMs: number | null = null;
  if (merged.maxAge) {
    maxAgeMs = retentionPeriodMs(merged.maxAge);
    if (maxAgeMs === null) return disabled(`general.sessionRetention.maxAge ${JSON.stringify(merged.maxAge)} ${where('maxAge')} is not <number><h|d|w|m>`);
    const minMs = retentionPeriodMs(merged.minRetention || DEFAULT_MIN_RETENTION) ?? (retentionPeriodMs(DEFAULT_MIN_RETENTION) as number);
    if (maxAgeMs < minMs) return disabled(`general.sessionRetention.maxAge ${String(merged.maxAge)} is below minRetention ${String(merged.minRetention || DEFAULT_MIN_RETENTION)}`);
  }
  const maxCount = merged.maxCount;
  if (maxCount !== undefined && maxCount !== null && (typeof maxCount !== 'number' || maxCount < 1)) return disabled(`general.sessionRetention.maxCount ${JSON.stringify(maxCount)} ${where('maxCount')} is below 1`);
  const countWarning = typeof maxCount === 'number' ? `Gemini CLI also keeps only the ${maxCount} most recently updated sessions of a project (general.sessionRetention.maxCount ${where('maxCount')}): older ones are deleted at its next start there, whatever their age. Keep them with "glassbox keep --all".` : null;
  if (maxAgeMs === null) {
    if (typeof maxCount !== 'number') return disabled('general.sessionRetention sets neither maxAge nor maxCount');
    return { kind: 'never', decidedBy: `no maxAge; maxCount ${maxCount} ${where('maxCount')}`, sources, warning: countWarning };
  }
  const byDefault = !setBy.maxAge && !setBy.enabled;
  const decidedBy = byDefault
    ? `Gemini CLI's default (general.sessionRetention: on, maxAge ${DEFAULT_MAX_AGE}, since 0.33; older versions have it off)`
    : `general.sessionRetention.maxAge ${String(merged.maxAge)} ${where('maxAge')}`;
  return { kind: 'deletes', days: maxAgeMs / DAY_MS, decidedBy, sources, warning: countWarning };
}
