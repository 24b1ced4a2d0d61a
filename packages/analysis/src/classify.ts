import type { DeadClass, Proof, ReadOp, Segment, SegmentRef, Session, ToolCall } from '@glassbox/core';
import type { AnalysisPorts, PathKind } from './ports';
import { mapPath } from './paths';
import { rangeDiff } from './diff';
import { TOMBSTONE_TOKENS_ESTIMATE } from './tombstone';

export interface ClassifyOptions {
  /** The folder the session's working directory is mapped to (a moved checkout); null to check the cwd itself. */
  repoRoot: string | null;
  withSpent: boolean;
  /** Number of most recent API exchanges that are never evicted. */
  protectTail: number;
}

export interface ClassifyResult {
  repoExists: boolean;
  repoPath: string | null;
}

type Range = { startLine: number; endLine: number; full: boolean };

interface FileEvent {
  pos: number;
  call: ToolCall;
  seg: Segment;
  type: 'read' | 'write' | 'edit';
}

/**
 * Gives each segment its class and proof, in place. Order of rules: gone, then superseded, then
 * drift, then duplicate (and spent only when asked). Anything without a proof stays live.
 */
export function classifySegments(
  session: Session,
  segments: Segment[],
  exchanges: number[],
  ports: AnalysisPorts,
  options: ClassifyOptions,
): ClassifyResult {
  const checkedAt = ports.now().toISOString();
  const repoPath = options.repoRoot ?? session.cwd;
  const repoExists = repoPath !== null && ports.repo.kind(repoPath) === 'dir';
  markProtected(segments, exchanges, options.protectTail);

  const kinds = new Map<string, PathKind>();
  const kindOf = (p: string): PathKind => {
    let k = kinds.get(p);
    if (k === undefined) {
      k = ports.repo.kind(p);
      kinds.set(p, k);
    }
    return k;
  };
  const texts = new Map<string, string | null>();
  const textOf = (p: string): string | null => {
    if (!texts.has(p)) texts.set(p, ports.repo.readText(p));
    return texts.get(p) ?? null;
  };

  const byPath = collectFileEvents(session, segments);
  const captured = new Map<string, string | null>();
  const capturedOf = (call: ToolCall): string | null => {
    if (call.op.kind !== 'read') return null;
    if (call.op.capturedText !== undefined) return call.op.capturedText;
    if (call.op.capturedHash === undefined) return null;
    if (!captured.has(call.id)) {
      const text = session.capturedTextOf?.(call) ?? null;
      // Only text whose hash matches what the parse saw is evidence.
      captured.set(call.id, text !== null && ports.hash(text) === call.op.capturedHash ? text : null);
    }
    return captured.get(call.id) ?? null;
  };
  const refOf = (s: Segment): SegmentRef => {
    const r: SegmentRef = { segmentId: s.id, line: s.line };
    if (s.timestamp) r.timestamp = s.timestamp;
    if (s.toolUseId) r.toolUseId = s.toolUseId;
    return r;
  };

  for (const [path, events] of byPath) {
    const mapped = repoExists ? mapPath(path, session.cwd, options.repoRoot) : null;
    const pathKind = mapped !== null ? kindOf(mapped) : null;
    events.forEach((ev, i) => {
      if (ev.call.isError || ev.seg.isError) return;
      // gone: the file is not on disk, and the working directory it lived in is.
      if (mapped !== null && pathKind === 'missing') {
        setClass(ev.seg, { class: 'gone', path, checkedPath: mapped, checkedAt, cwdExists: true });
        return;
      }
      // superseded: a later read covering the same lines, or a later full write.
      const by = supersededBy(ev, events.slice(i + 1), capturedOf);
      if (by) {
        const proof: Proof = {
          class: 'stale-superseded',
          path,
          range: rangeOf(ev),
          by: { ...refOf(by.seg), kind: by.type === 'write' ? 'write' : 'read' },
        };
        if (by.type === 'read') proof.by.range = rangeOf(by);
        setClass(ev.seg, proof);
        return;
      }
      // drift: the captured lines differ from the same lines on disk now.
      if (ev.type === 'read' && mapped !== null && pathKind === 'file') {
        const op = ev.call.op as ReadOp;
        const capturedText = capturedOf(ev.call);
        if (capturedText === null || op.capturedHash === undefined) return;
        const disk = textOf(mapped);
        if (disk === null) return;
        const now = comparableText(disk, capturedText);
        // Bytes that did not decode as UTF-8 prove nothing about what the read saw.
        if (now === null) return;
        const current = sliceRange(now, op);
        if (current === capturedText) return;
        setClass(ev.seg, {
          class: 'stale-drift',
          path,
          checkedPath: mapped,
          checkedAt,
          range: rangeOf(ev),
          capturedHash: op.capturedHash,
          currentHash: ports.hash(current),
          diff: rangeDiff(path, capturedText, current, op.startLine),
        });
      }
    });
  }

  classifyDuplicates(segments, refOf);
  if (options.withSpent) classifySpent(segments, session);
  return { repoExists, repoPath };
}

function setClass(seg: Segment, proof: Proof): void {
  seg.class = proof.class;
  seg.proof = proof;
}

/** Reads (results) and writes/edits (inputs) of each file, in conversation order. */
function collectFileEvents(session: Session, segments: Segment[]): Map<string, FileEvent[]> {
  const byPath = new Map<string, FileEvent[]>();
  segments.forEach((seg, pos) => {
    if (!seg.toolUseId) return;
    const call = session.toolCalls.get(seg.toolUseId);
    if (!call) return;
    const op = call.op;
    let type: FileEvent['type'] | null = null;
    if (op.kind === 'read' && seg.kind === 'tool-result' && !op.unchanged && op.numLines > 0) type = 'read';
    else if (op.kind === 'write' && seg.kind === 'tool-input' && call.resultUuid) type = 'write';
    else if (op.kind === 'edit' && seg.kind === 'tool-input' && call.resultUuid) type = 'edit';
    if (!type || !('path' in op) || !op.path) return;
    const list = byPath.get(op.path);
    const ev: FileEvent = { pos, call, seg, type };
    if (list) list.push(ev);
    else byPath.set(op.path, [ev]);
  });
  return byPath;
}

function rangeOf(ev: FileEvent): Range {
  const op = ev.call.op;
  if (op.kind === 'read') return { startLine: op.startLine, endLine: op.startLine + Math.max(op.numLines, 1) - 1, full: op.full };
  return { startLine: 1, endLine: 0, full: true };
}

/**
 * The latest later event that makes this one redundant: a full, untruncated read, or a successful
 * Write of the whole file; for a read, also a later read whose range covers it with the same text.
 * An Edit is not a read, and a partial read never covers a different range.
 */
function supersededBy(ev: FileEvent, later: FileEvent[], capturedOf: (call: ToolCall) => string | null): FileEvent | null {
  let found: FileEvent | null = null;
  for (const next of later) {
    if (next.call.isError || next.seg.isError) continue;
    if (next.type === 'write') {
      found = next;
      continue;
    }
    if (next.type !== 'read') continue;
    const op = next.call.op as ReadOp;
    if (op.full && !op.truncated && op.capturedHash !== undefined) {
      found = next;
      continue;
    }
    if (ev.type === 'read' && coversWithSameText(ev.call.op as ReadOp, capturedOf(ev.call), op, capturedOf(next.call))) found = next;
  }
  return found;
}

function coversWithSameText(earlier: ReadOp, earlierText: string | null, later: ReadOp, laterText: string | null): boolean {
  if (earlierText === null || laterText === null) return false;
  const e0 = earlier.startLine;
  const e1 = earlier.startLine + earlier.numLines - 1;
  const l0 = later.startLine;
  const l1 = later.startLine + later.numLines - 1;
  if (l0 > e0 || l1 < e1) return false;
  const lines = laterText.split('\n');
  const slice = lines.slice(e0 - l0, e1 - l0 + 1).join('\n');
  return slice === earlierText;
}

/**
 * The disk text in the form the client captured it: Windows line endings and a byte-order mark are
 * dropped when the capture has none (the client may normalise them, and they are not a change of
 * content). Null when the file does not decode cleanly.
 */
export function comparableText(disk: string, captured: string): string | null {
  let text = disk;
  if (text.includes('\uFFFD') && !captured.includes('\uFFFD')) return null;
  if (text.charCodeAt(0) === 0xfeff && captured.charCodeAt(0) !== 0xfeff) text = text.slice(1);
  if (!captured.includes('\r') && text.includes('\r\n')) text = text.replace(/\r\n/g, '\n');
  return text;
}

/** The text now on disk over the range a read captured. */
export function sliceRange(text: string, op: ReadOp): string {
  if (op.full) return text;
  const lines = text.split('\n');
  return lines.slice(op.startLine - 1, op.startLine - 1 + op.numLines).join('\n');
}

/** Earlier byte-identical copies of a tool result are dead; the latest live copy is kept. */
function classifyDuplicates(segments: Segment[], refOf: (s: Segment) => SegmentRef): void {
  const groups = new Map<string, Segment[]>();
  for (const s of segments) {
    if (s.kind !== 'tool-result' || !s.hash || s.isError) continue;
    if (s.evictableTokens <= TOMBSTONE_TOKENS_ESTIMATE) continue;
    const key = `${s.hash}:${s.bytes}`;
    const g = groups.get(key);
    if (g) g.push(s);
    else groups.set(key, [s]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const kept = [...group].reverse().find((s) => s.class === 'live');
    if (!kept) continue;
    for (const s of group) {
      if (s === kept || s.class !== 'live') continue;
      if (segmentsAfter(s, kept)) continue;
      setClass(s, { class: 'duplicate', hash: s.hash ?? '', bytes: s.bytes, kept: refOf(kept), copies: group.length });
    }
  }
}

function segmentsAfter(a: Segment, b: Segment): boolean {
  return a.line > b.line || (a.line === b.line && a.blockIndex > b.blockIndex);
}

const SPENT_SOURCES = new Set(['command', 'search', 'url', 'mcp']);

/** Inferred, never proven: one-shot outputs of commands and searches older than the protected tail. */
function classifySpent(segments: Segment[], session: Session): void {
  const reran = new Map<string, number>();
  for (const s of segments) {
    if (s.kind === 'tool-result' && SPENT_SOURCES.has(s.source.type)) reran.set(s.source.label, (reran.get(s.source.label) ?? 0) + 1);
  }
  for (const s of segments) {
    if (s.class !== 'live' || s.protected || s.isError || s.kind !== 'tool-result') continue;
    if (!SPENT_SOURCES.has(s.source.type) || s.evictableTokens <= TOMBSTONE_TOKENS_ESTIMATE) continue;
    const call = s.toolUseId ? session.toolCalls.get(s.toolUseId) : undefined;
    if (!call) continue;
    setClass(s, {
      class: 'spent',
      inferred: true,
      reason: `a one-shot ${s.source.type} output older than the protected tail${(reran.get(s.source.label) ?? 0) > 1 ? ' (the same command ran again later)' : ''}; inferred, not proven`,
    });
  }
}

/** Segments in the last exchanges, and kinds that are never evicted, are protected. */
function markProtected(segments: Segment[], exchanges: number[], protectTail: number): void {
  const last = exchanges.reduce((m, e) => (e > m ? e : m), 0);
  const cut = last - Math.max(0, protectTail);
  segments.forEach((s, i) => {
    const ex = exchanges[i] ?? 0;
    const never =
      s.isError === true ||
      s.kind === 'prompt' ||
      s.kind === 'assistant-text' ||
      s.kind === 'thinking' ||
      s.kind === 'compact-summary' ||
      s.kind === 'meta' ||
      s.kind === 'attachment' ||
      s.kind === 'image' ||
      s.kind === 'other';
    s.protected = never || ex > cut;
  });
}

export const DEAD_CLASS_ORDER: readonly DeadClass[] = ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'];
