import type { KeptView, RetentionView } from '@glassbox/contract';
import { retentionLabel } from '../../retention-labels';

/** "deleted by Claude Code in 3 days" / "kept — deleted by Claude Code on …", for a row or the window header. */
export function RetentionMark({ retention, kept }: { retention: RetentionView | null; kept: KeptView | null }) {
  const label = retentionLabel(retention, kept);
  if (!label) return null;
  return (
    <span className={`retention-mark ${label.tone}`} title={label.title} data-testid="retention-mark" data-tone={label.tone}>
      {label.tone === 'warn' ? '⚠ ' : label.tone === 'kept' ? '◆ ' : ''}
      {label.text}
    </span>
  );
}
