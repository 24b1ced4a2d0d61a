import type { DeadProofs, MarkProofs, Proof, ReadOp, Segment, SegmentRef, Session, ToolCall } from '@glassbox/core';
import type { AnalysisPorts, PathKind } from '../ports';
import { mapPath } from '../paths';
import { collectFileEvents, type FileEvent } from './file-events';
import type { ElideOptions } from './elided';

type Marked = keyof DeadProofs | keyof MarkProofs;

/** What every classification rule may see and do: the session, its segments, the disk through ports. */
export interface RuleContext {
  session: Session;
  /** Resident segments in conversation order. */
  segments: readonly Segment[];
  ports: AnalysisPorts;
  /** The elided rule's thresholds (null unless asked for). */
  elide: ElideOptions | null;
  /** ISO time the disk was looked at. */
  checkedAt: string;
  /** The working directory (or the folder it is mapped to) exists here: only then can the disk prove anything. */
  repoExists: boolean;
  /** A recorded path as it is on this machine, or null when the disk cannot speak for it. */
  onDisk(recordedPath: string): string | null;
  kindOf(path: string): PathKind;
  textOf(path: string): string | null;
  /** The text a read captured, only when its hash matches what the parse saw (else it is no evidence). */
  capturedOf(call: ToolCall): string | null;
  /** Reads, writes and edits of each file, in conversation order (computed once, on first use). */
  fileEvents(): Map<string, FileEvent[]>;
  refOf(seg: Segment): SegmentRef;
  /** Gives a live segment its class and proof; a segment already classified keeps its class. */
  mark<K extends Marked>(seg: Segment, cls: K, proof: (DeadProofs & MarkProofs)[K]): void;
}

export interface RuleContextOptions {
  repoRoot: string | null;
  /** The elided rule's thresholds, when it runs. */
  elide?: ElideOptions | null;
}

export function ruleContext(session: Session, segments: Segment[], ports: AnalysisPorts, options: RuleContextOptions): RuleContext {
  const checkedAt = ports.now().toISOString();
  const repoPath = options.repoRoot ?? session.cwd;
  const repoExists = repoPath !== null && ports.repo.kind(repoPath) === 'dir';
  const kinds = new Map<string, PathKind>();
  const texts = new Map<string, string | null>();
  const captured = new Map<string, string | null>();
  let events: Map<string, FileEvent[]> | null = null;
  return {
    session,
    segments,
    ports,
    elide: options.elide ?? null,
    checkedAt,
    repoExists,
    onDisk: (p) => (repoExists ? mapPath(p, session.cwd, options.repoRoot) : null),
    kindOf(p) {
      let k = kinds.get(p);
      if (k === undefined) {
        k = ports.repo.kind(p);
        kinds.set(p, k);
      }
      return k;
    },
    textOf(p) {
      if (!texts.has(p)) texts.set(p, ports.repo.readText(p));
      return texts.get(p) ?? null;
    },
    capturedOf(call) {
      if (call.op.kind !== 'read') return null;
      const op: ReadOp = call.op;
      if (op.capturedText !== undefined) return op.capturedText;
      if (op.capturedHash === undefined) return null;
      if (!captured.has(call.id)) {
        const text = session.capturedTextOf?.(call) ?? null;
        captured.set(call.id, text !== null && ports.hash(text) === op.capturedHash ? text : null);
      }
      return captured.get(call.id) ?? null;
    },
    fileEvents() {
      events ??= collectFileEvents(session, segments);
      return events;
    },
    refOf(s) {
      const r: SegmentRef = { segmentId: s.id, line: s.line };
      if (s.timestamp) r.timestamp = s.timestamp;
      if (s.toolUseId) r.toolUseId = s.toolUseId;
      return r;
    },
    mark(seg, cls, proof) {
      if (seg.class !== 'live') return;
      seg.class = cls;
      seg.proof = { class: cls, ...proof } as Proof;
    },
  };
}
