import { DEAD_CLASSES, type AgentFormat, type ClassifiedSnapshot, type CompactionHistory, type CompactionItem, type Segment, type SegmentClass, type SegmentKind, type Session } from '@glassbox/core';
import { attachmentContent, blockContent, type BlockRef, type RecordLines } from './segment-content';

/** One thing the conversation holds, read in order: a prompt, a reply, a tool call (with its result), an attachment… */
export interface TranscriptItem {
  segmentId: string;
  kind: SegmentKind;
  class: SegmentClass;
  /** Proven (or, when asked for, inferred) dead: a fork would remove it. A tombstone is its own class. */
  dead: boolean;
  label: string;
  toolName?: string;
  /** The transcript line of its record. */
  line: number;
  /** The prompt it answers (items of the resident window only). */
  turn?: number;
  tokens: number;
  /** The text as the model reads it (an attachment: what it carries), cut at the cap asked for. */
  text: string;
  /** Characters left out of `text`. */
  cut: number;
  /** 0 before the first compaction, n after the nth (on the live conversation). */
  window: number;
  /** In the window the model reads now: the treemap and the inspector have it. */
  resident: boolean;
  /** An attachment, in words ("file src/a.ts, attached by the client"). */
  attachment?: string;
  /** A tool call's result, read with it. */
  result?: TranscriptItem;
}

/** A compaction, shown where it happened: before the item at `before`. */
export interface CompactionMark {
  index: number;
  trigger: string;
  at: string | null;
  line: number;
  /** The provider-reported size of the window it replaced, and of the first request after it. */
  preTokens: number | null;
  postTokens: number | null;
  summaryTokens: number;
  /** Index into `items` of the first item after it. */
  before: number;
}

/** The whole conversation, before and after each compaction of the live chain. */
export interface Transcript {
  items: TranscriptItem[];
  compactions: CompactionMark[];
  /** Compactions of this thread the live conversation does not go through (on an abandoned branch): not shown. */
  unreached: number;
  /**
   * The session was compacted but the windows before cannot be rebuilt (the agent's adapter records
   * no compaction to x-ray): the conversation starts at the last compaction's summary.
   */
  fromLastCompaction: boolean;
}

/** What the conversation is read from: the window now, the windows before each compaction, the bytes. */
export interface TranscriptSource {
  /** The session as parsed (its records' places in the file). */
  session: Session;
  snapshot: ClassifiedSnapshot;
  /** The session's own compaction history (null: none was made, e.g. a session without compactions). */
  history: CompactionHistory | null;
  lines: RecordLines;
  format?: Partial<Pick<AgentFormat, 'recordText' | 'blockText' | 'attachmentView'>>;
  /** Characters of each item's text kept (null: all of it, for an export). */
  textCap: number | null;
}

/**
 * The whole session in reading order (docs/conversation.md): the window before the first compaction,
 * each compaction in place, what came after it, up to the window the model reads now. Each window is
 * the one the compaction x-ray rebuilt, so its classes are the ones proven then; a message the client
 * kept across a compaction is shown once, where it was first written. A tool call carries its result.
 */
export function wholeConversation(src: TranscriptSource): Transcript {
  const cwd = src.session.cwd;
  const reports = src.history?.compactions ?? [];
  const items: TranscriptItem[] = [];
  const compactions: CompactionMark[] = [];
  let from = 0;
  reports.forEach((report, k) => {
    const window = [...report.xray.kept, ...report.xray.dropped]
      .filter((i) => i.line >= from)
      .sort((a, b) => a.position - b.position)
      .map((i) => fromXray(i, k, src, cwd));
    items.push(...paired(window));
    compactions.push({
      index: report.xray.index,
      trigger: report.xray.trigger,
      at: report.xray.at,
      line: report.xray.line,
      preTokens: report.xray.preTokens,
      postTokens: report.postTokens,
      summaryTokens: report.xray.summaryTokens,
      before: items.length,
    });
    from = report.xray.line;
  });
  const nodes = src.session.nodes;
  const now = src.snapshot.segments
    .filter((s) => s.line >= from)
    .map((s) => {
      const node = nodes.get(s.uuid);
      return fromSegment(s, { offset: node?.offset ?? 0, length: node?.length ?? 0, blockIndex: s.blockIndex, kind: s.kind, preview: s.preview, uuid: s.uuid }, reports.length, src, cwd);
    });
  items.push(...paired(now));
  const fromLastCompaction = reports.length === 0 && src.snapshot.segments.some((s) => s.kind === 'compact-summary');
  return { items, compactions, unreached: src.history?.unreached.length ?? 0, fromLastCompaction };
}

function fromXray(i: CompactionItem, window: number, src: TranscriptSource, cwd: string | null): TranscriptItem & { toolUseId?: string } {
  const ref: BlockRef = { ...i.record, kind: i.kind, preview: i.preview, uuid: i.uuid };
  return {
    ...itemText(ref, src, cwd),
    segmentId: i.segmentId,
    kind: i.kind,
    class: i.class,
    dead: i.dead,
    label: i.label,
    ...(i.toolName ? { toolName: i.toolName } : {}),
    ...(i.toolUseId ? { toolUseId: i.toolUseId } : {}),
    line: i.line,
    tokens: i.tokens,
    window,
    resident: false,
  };
}

function fromSegment(s: Segment, ref: BlockRef, window: number, src: TranscriptSource, cwd: string | null): TranscriptItem & { toolUseId?: string } {
  return {
    ...itemText(ref, src, cwd),
    segmentId: s.id,
    kind: s.kind,
    class: s.class,
    dead: (DEAD_CLASSES as readonly string[]).includes(s.class),
    label: s.source.label,
    ...(s.toolName ? { toolName: s.toolName } : {}),
    ...(s.toolUseId ? { toolUseId: s.toolUseId } : {}),
    line: s.line,
    turn: s.turn,
    tokens: s.tokens,
    window,
    resident: true,
  };
}

function itemText(ref: BlockRef, src: TranscriptSource, cwd: string | null): { text: string; cut: number; attachment?: string } {
  const att = attachmentContent(ref, src.lines, cwd, src.format);
  const full = att?.text ?? blockContent(ref, src.lines, cwd, src.format);
  const text = src.textCap !== null && full.length > src.textCap ? full.slice(0, src.textCap) : full;
  return { text, cut: full.length - text.length, ...(att ? { attachment: att.what } : {}) };
}

/** Each tool result moved under the call it answers (the same window); a result without its call stays where it is. */
function paired(window: (TranscriptItem & { toolUseId?: string })[]): TranscriptItem[] {
  const calls = new Map<string, TranscriptItem>();
  const out: TranscriptItem[] = [];
  for (const it of window) {
    const { toolUseId, ...item } = it;
    const call = toolUseId ? calls.get(toolUseId) : undefined;
    if (item.kind === 'tool-result' && call && !call.result) {
      call.result = item;
      continue;
    }
    if (item.kind === 'tool-input' && toolUseId) calls.set(toolUseId, item);
    out.push(item);
  }
  return out;
}
