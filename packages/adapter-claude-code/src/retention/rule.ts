/**
 * Claude Code's clean-up rule from the text of its settings files (pure; docs/claude-code/retention.md).
 * The client merges `cleanupPeriodDays` like any setting — user, then project, then local project
 * settings, managed policy over all — deletes sessions whose file is older than that many days
 * (default 30), and skips the clean-up entirely when the settings fail validation (a file that does not
 * parse counts) while the value is written in one of the files (so `0`, which fails validation, turns
 * it off in 2.1.197).
 */
import type { RetentionRule, RetentionSource } from '@glassbox/core';

/** The client's default (`DEm` in 2.1.197). */
export const DEFAULT_CLEANUP_DAYS = 30;

export type SettingsScope = 'user' | 'project' | 'local' | 'policy';

/** One settings file as read: its text, or null when it does not exist. */
export interface SettingsText {
  scope: SettingsScope;
  file: string;
  text: string | null;
}

/** What one settings file says about the clean-up. */
export interface CleanupSetting {
  scope: SettingsScope;
  file: string;
  /** The file exists. */
  present: boolean;
  /** The key is written in it (valid or not): the client then skips the clean-up on validation errors. */
  explicit: boolean;
  /** A valid value (a whole number ≥ 1), or null. */
  days: number | null;
  /** The value as written when it is invalid (`0`, `-1`, `"30"`, `1.5`). */
  invalid: string | null;
  /** The file does not parse as a JSON object: ignored, reported. */
  malformed: string | null;
}

export function readCleanupSetting(s: SettingsText): CleanupSetting {
  const base: CleanupSetting = { scope: s.scope, file: s.file, present: s.text !== null, explicit: false, days: null, invalid: null, malformed: null };
  if (s.text === null || s.text.trim() === '') return base;
  let parsed: unknown;
  try {
    parsed = JSON.parse(s.text);
  } catch (error) {
    return { ...base, malformed: `does not parse as JSON (${(error as Error).message})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ...base, malformed: 'is not a JSON object' };
  if (!Object.prototype.hasOwnProperty.call(parsed, 'cleanupPeriodDays')) return base;
  const v = (parsed as Record<string, unknown>)['cleanupPeriodDays'];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return { ...base, explicit: true, days: v };
  return { ...base, explicit: true, invalid: JSON.stringify(v) ?? String(v) };
}

const ZERO_WARNING =
  'cleanupPeriodDays is 0. Claude Code 2.1.197 reads that as invalid and skips its clean-up (nothing is deleted), ' +
  'but older versions read it as "keep no transcripts at all". To keep sessions, set a large number (say 3650) instead.';

/**
 * The rule for one run of the client whose merged settings come from these files, in the client's order
 * (user, project, local, then policy files). Mirrors the 2.1.197 code: a policy value always applies;
 * otherwise a settings error while the value is written in a file means no clean-up; otherwise the last
 * valid value wins, and a file that does not parse is ignored.
 * Settings errors Glassbox cannot see (another setting of the wrong type) also stop the client's clean-up;
 * Glassbox assumes it runs, which can only make a deletion date early, never late.
 */
export function cleanupRule(files: readonly SettingsText[]): RetentionRule {
  const settings = files.map(readCleanupSetting);
  const sources: RetentionSource[] = settings
    .filter((s) => s.present)
    .map((s) => ({
      file: s.file,
      problem: s.malformed
        ? `${s.malformed}; ignored, as if it were absent`
        : s.invalid !== null
          ? `cleanupPeriodDays ${s.invalid} is not a whole number of days ≥ 1`
          : null,
    }));
  const zero = settings.some((s) => s.invalid === '0') ? ZERO_WARNING : null;
  const policy = settings.filter((s) => s.scope === 'policy' && s.explicit);
  const lastPolicy = policy.at(-1);
  if (lastPolicy) {
    if (lastPolicy.days !== null) return { kind: 'deletes', days: lastPolicy.days, decidedBy: `cleanupPeriodDays ${lastPolicy.days} in the managed policy ${lastPolicy.file}`, sources, warning: zero };
    return { kind: 'never', decidedBy: `cleanupPeriodDays ${lastPolicy.invalid ?? '?'} in the managed policy ${lastPolicy.file} turns the clean-up off`, sources, warning: zero };
  }
  const own = settings.filter((s) => s.scope !== 'policy');
  // The client's own test: any settings error (an invalid value, a file that does not parse) while the
  // value is written in a file means no clean-up at all.
  const error = settings.find((s) => s.invalid !== null || s.malformed !== null);
  const written = own.find((s) => s.explicit);
  if (error && written) {
    const what = error.invalid !== null ? `cleanupPeriodDays ${error.invalid} in ${error.file} fails the client's validation` : `${error.file} does not parse`;
    return {
      kind: 'never',
      decidedBy: `${what} while cleanupPeriodDays is set${written === error ? '' : ` in ${written.file}`}, and then Claude Code skips its clean-up`,
      sources,
      warning: zero,
    };
  }
  const last = own.filter((s) => s.days !== null).at(-1);
  if (last && last.days !== null) return { kind: 'deletes', days: last.days, decidedBy: `cleanupPeriodDays ${last.days} in ${last.file}`, sources, warning: null };
  const malformed = own.filter((s) => s.malformed);
  const assumed = malformed.length > 0 ? ` (assumed: ${malformed.map((m) => m.file).join(', ')} could not be read)` : '';
  return { kind: 'deletes', days: DEFAULT_CLEANUP_DAYS, decidedBy: `Claude Code's default of ${DEFAULT_CLEANUP_DAYS} days${assumed}`, sources, warning: null };
}
