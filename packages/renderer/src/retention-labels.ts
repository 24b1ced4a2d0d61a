import { untilLabel } from '@glassbox/core';
import type { KeptView, RetentionView } from '@glassbox/contract';

/** What the list and the header say about a session's clean-up by its client and its kept copy. */
export interface RetentionLabel {
  text: string;
  /** 'warn': the client deletes it soon and the archive does not hold it as it is; 'kept': it is safe. */
  tone: 'warn' | 'kept' | 'plain';
  title: string;
}

/** A session the client deletes within this long, not kept as it is, is shown as a warning. */
const SOON_MS = 7 * 86_400_000;

/**
 * "deleted by Claude Code in 3 days", "… · kept", "kept — deleted by Claude Code on 2026-11-28";
 * null when the client never deletes the session and it is not kept.
 */
export function retentionLabel(retention: RetentionView | null, kept: KeptView | null, now = Date.now()): RetentionLabel | null {
  if (kept?.gone) {
    const on = kept.gone.noticedAt.slice(0, 10);
    const client = retention?.client ?? 'its client';
    return {
      text: kept.gone.byClient ? `kept — deleted by ${client} on ${on}` : `kept — the original was removed on ${on}`,
      tone: 'kept',
      title: `Read from Glassbox's archive (kept ${kept.keptAt.slice(0, 16).replace('T', ' ')} UTC). Restore writes it back to ${kept.originalPath}.`,
    };
  }
  const keptText = kept ? (kept.current ? 'kept' : 'kept (changed since)') : null;
  const keptTitle = kept ? `Kept ${kept.keptAt.slice(0, 16).replace('T', ' ')} UTC, ${kept.versions} version${kept.versions === 1 ? '' : 's'}${kept.current ? '' : '; the session changed since'}.` : 'Not kept by Glassbox.';
  if (!retention || retention.expiresAt === null) {
    return keptText ? { text: keptText, tone: 'kept', title: `${keptTitle}${retention ? ` ${retention.client} never deletes it (${retention.decidedBy}).` : ''}` } : null;
  }
  const at = Date.parse(retention.expiresAt);
  const text = `deleted by ${retention.client} ${untilLabel(at, now)}${keptText ? ` · ${keptText}` : ''}`;
  const safe = kept?.current === true;
  return {
    text,
    tone: safe ? 'kept' : at - now < SOON_MS ? 'warn' : 'plain',
    title: `${retention.client} deletes this session on ${retention.expiresAt.slice(0, 10)} unless it is written to again (${retention.decidedBy}). ${keptTitle}`,
  };
}

/** A row's own mark: only what sets it apart (deleted soon, kept, the archive's copy); the usual date is its project's. */
export function rowRetentionLabel(retention: RetentionView | null, kept: KeptView | null, now = Date.now()): RetentionLabel | null {
  const label = retentionLabel(retention, kept, now);
  return label && label.tone !== 'plain' ? label : null;
}

interface Retained {
  path: string;
  retention: RetentionView | null;
  kept: KeptView | null;
}

/**
 * The one note a project's header carries: when its client next deletes one of its sessions (those
 * the archive holds as they are do not count); null when it deletes none.
 */
export function projectRetentionLabel(rows: readonly Retained[], now = Date.now()): RetentionLabel | null {
  let next: RetentionView | null = null;
  for (const r of rows) {
    if (!r.retention?.expiresAt || r.kept?.current === true) continue;
    if (!next?.expiresAt || Date.parse(r.retention.expiresAt) < Date.parse(next.expiresAt)) next = r.retention;
  }
  if (!next?.expiresAt) return null;
  const at = Date.parse(next.expiresAt);
  return {
    text: `next deleted by ${next.client} ${untilLabel(at, now)}`,
    tone: at - now < SOON_MS ? 'warn' : 'plain',
    title: `${next.client} deletes each session of this project some time after its last activity (${next.decidedBy}); the first to go is deleted on ${next.expiresAt.slice(0, 10)}.`,
  };
}

/** The sessions the client deletes soon that the archive does not hold as they are: the list's banner names them once. */
export function expiringSoon<R extends Retained>(rows: readonly R[], now = Date.now()): R[] {
  return rows.filter((r) => retentionLabel(r.retention, r.kept, now)?.tone === 'warn' && !r.kept?.gone);
}
