import type { KeptView, RetentionView } from '@glassbox/contract';
import { retentionLabel, type RetentionLabel } from '../../retention-labels';

/** "deleted by Claude Code in 3 days" / "kept — deleted by Claude Code on …", for a row or the window header. */
export function RetentionMark({ retention, kept }: { retention: RetentionView | null; kept: KeptView | null }) {
  const label = retentionLabel(retention, kept);
  return label ? <RetentionText label={label} /> : null;
}

/** A retention label as the list and the header show it (its tone as a mark and a colour). */
export function RetentionText({ label }: { label: RetentionLabel }) {
  return (
    <span className={`retention-mark ${label.tone}`} title={label.title} data-testid="retention-mark" data-tone={label.tone}>
      {label.tone === 'warn' ? '⚠ ' : label.tone === 'kept' ? '◆ ' : ''}
      {label.text}
    </span>
  );
}
