import {
  DEAD_CLASSES,
  estimateTokensFromBytes,
  type CompactionEvent,
  type CompactionFigures,
  type CompactionItem,
  type CompactionXray,
  type Segment,
  type Session,
} from '@glassbox/core';
import { keysOf } from './keys';
import { SummaryText, carriedBy } from './judge';

export interface XrayInput {
  index: number;
  event: CompactionEvent;
  /** The transcript as it was just before the compaction (its leaf: the compaction's `leafBefore`). */
  before: Session;
  /** That window's segments with their classes, and the size the provider reported for it. */
  segments: readonly Segment[];
  reportedTokens: number | null;
  /** The summary the model wrote (null when it cannot be read). */
  summaryText: string | null;
  /** The text of a segment as the model read it. */
  textOf: (segment: Segment) => string | null;
}

/**
 * Judges every segment of the window before a compaction against the summary that replaced it
 * (docs/compactions.md): carried across when the client kept the message verbatim or attached its file
 * again, or when the summary quotes a key that names it; dropped otherwise, largest first, each with
 * whether it was already proven dead.
 */
export function xrayCompaction(input: XrayInput): { xray: CompactionXray; figures: CompactionFigures } {
  const { event, before } = input;
  const summary = new SummaryText(input.summaryText ?? '', before.cwd);
  const preserved = new Set(event.preserved);
  const files = new Set(event.reattached.flatMap((r) => (r.path ? [r.path] : [])));
  const contexts = new Set(event.reattached.filter((r) => r.kind === 'context').map((r) => r.label));
  const kept: CompactionItem[] = [];
  const dropped: CompactionItem[] = [];
  const figures: CompactionFigures = { windowTokens: 0, keptTokens: 0, partialTokens: 0, droppedTokens: 0, droppedDeadTokens: 0 };
  for (const [position, segment] of input.segments.entries()) {
    const node = before.nodes.get(segment.uuid);
    const call = segment.toolUseId ? before.toolCalls.get(segment.toolUseId) : undefined;
    const drafts = keysOf({ segment, text: input.textOf(segment), op: call?.op ?? null, promptText: node?.promptText ?? null });
    const keys = drafts.map((k) => ({ ...k, found: summary.find(k) }));
    const dead = (DEAD_CLASSES as readonly string[]).includes(segment.class);
    let carried: CompactionItem['carried'];
    if (preserved.has(segment.uuid)) carried = 'preserved';
    // A file attached again carries its current text: not a version proven stale or gone before.
    else if ((segment.source.path && files.has(segment.source.path) && !dead) || (segment.kind === 'attachment' && contexts.has(segment.source.label))) carried = 'reattached';
    else carried = carriedBy(keys);
    const item: CompactionItem = {
      segmentId: segment.id,
      uuid: segment.uuid,
      line: segment.line,
      kind: segment.kind,
      sourceType: segment.source.type,
      label: segment.source.label,
      tokens: segment.tokens,
      class: segment.class,
      dead,
      isError: segment.isError === true,
      carried,
      keys,
      preview: segment.preview,
      record: { offset: node?.offset ?? 0, length: node?.length ?? 0, blockIndex: segment.blockIndex },
      position,
      ...(segment.toolUseId ? { toolUseId: segment.toolUseId } : {}),
      ...(segment.toolName ? { toolName: segment.toolName } : {}),
    };
    figures.windowTokens += item.tokens;
    if (carried === 'partial' || carried === 'none') {
      dropped.push(item);
      figures.droppedTokens += item.tokens;
      if (carried === 'partial') figures.partialTokens += item.tokens;
      if (dead) figures.droppedDeadTokens += item.tokens;
    } else {
      kept.push(item);
      figures.keptTokens += item.tokens;
    }
  }
  dropped.sort((a, b) => b.tokens - a.tokens || a.line - b.line);
  const xray: CompactionXray = {
    index: input.index,
    trigger: event.trigger,
    at: event.timestamp ?? null,
    line: event.line,
    preTokens: input.reportedTokens,
    preTokensMetadata: event.preTokensMetadata,
    summaryTokens: estimateTokensFromBytes(event.summary?.bytes ?? 0, before.bytesPerToken),
    kept,
    dropped,
    reattached: event.reattached,
  };
  return { xray, figures };
}
