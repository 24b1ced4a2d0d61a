/**
 * When an agent's own client deletes a session it keeps on disk (Claude Code's `cleanupPeriodDays`),
 * in agent-neutral terms. The rule itself is agent knowledge: an adapter reads its client's settings
 * and answers through `AgentRetention` (agent.ts); this file only says what an answer looks like and
 * does the arithmetic on it. No I/O.
 */

/** A settings file the rule was read from, and what was wrong with it (reported, never fatal). */
export interface RetentionSource {
  /** The file, or a description ("the default of Claude Code 2.1.197"). */
  file: string;
  /** Why the file was not used as written (does not parse, an invalid value); null when it was. */
  problem: string | null;
}

export type RetentionRule =
  /** The client deletes a session once its file has not been modified for `days` days. */
  | ({ kind: 'deletes'; days: number } & RuleBasis)
  /** The client never deletes sessions here (the clean-up is off, or the folder is not one it cleans). */
  | ({ kind: 'never' } & RuleBasis);

interface RuleBasis {
  /** What decided the rule, for people ("cleanupPeriodDays 10 in ~/.claude/settings.json"). */
  decidedBy: string;
  /** Every settings file looked at, in the client's order. */
  sources: RetentionSource[];
  /** A setting the client reads in a surprising way (Claude Code's 0), said once; null for none. */
  warning: string | null;
}

/** Below this many days a setting is worth a warning: a week off work loses sessions. */
export const SHORT_RETENTION_DAYS = 7;

const DAY_MS = 86_400_000;

/** When a session whose file was last modified at `mtimeMs` is deleted under a rule; null for never. */
export function expiryOf(mtimeMs: number, rule: RetentionRule): number | null {
  return rule.kind === 'deletes' ? mtimeMs + rule.days * DAY_MS : null;
}

/** The rule that deletes first of several that may apply (null when none applies). */
export function earliestRule(rules: readonly RetentionRule[]): RetentionRule | null {
  let best: RetentionRule | null = null;
  for (const r of rules) {
    if (!best) best = r;
    else if (r.kind === 'deletes' && (best.kind === 'never' || r.days < best.days)) best = r;
  }
  return best;
}

/** "in 3 days", "in 5 h", "today", "overdue": how far a deletion time is from now, for people. */
export function untilLabel(atMs: number, nowMs: number): string {
  const ms = atMs - nowMs;
  if (ms <= 0) return 'overdue';
  const hours = ms / 3_600_000;
  if (hours < 1) return 'within the hour';
  if (hours < 24) return `in ${Math.floor(hours)} h`;
  const days = Math.floor(ms / DAY_MS);
  return `in ${days} day${days === 1 ? '' : 's'}`;
}

/**
 * The warning a rule deserves, once per configuration folder: a very short period, or a setting some
 * client versions read as "write no transcripts" (Claude Code's 0). Null when it needs none.
 */
export function retentionWarning(rule: RetentionRule, where: string): string | null {
  if (rule.kind === 'deletes' && rule.days <= SHORT_RETENTION_DAYS) {
    return `${where}: sessions are deleted after only ${rule.days} day${rule.days === 1 ? '' : 's'} without changes (${rule.decidedBy}). Keep them with "glassbox keep --all", or raise the setting.`;
  }
  return rule.warning ? `${where}: ${rule.warning}` : null;
}
