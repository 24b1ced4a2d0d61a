import { createHash } from 'node:crypto';
import { formatElisionMarker, parseElided, splitForElision, type AgentFormat, type ClassifiedSnapshot, type Proof, type Segment, type Session } from '@glassbox/core';
import type { SegmentDetail, SegmentElision } from '@glassbox/contract';
import { segmentContent } from '@glassbox/engine';
import type { SourceBytes } from './source-bytes';

/** The inspector shows at most this much text; the rest is counted, not sent. */
const DISPLAY_CAP = 2 * 1024 * 1024;

export function detailOf(
  session: Session,
  snapshot: ClassifiedSnapshot,
  segment: Segment,
  bytes: SourceBytes,
  format?: Pick<AgentFormat, 'recordText'>,
): SegmentDetail {
  const full = segmentContent(session, segment, bytes, format);
  const contentBytes = Buffer.byteLength(full, 'utf8');
  const truncated = full.length > DISPLAY_CAP;
  return {
    segment,
    content: truncated ? full.slice(0, DISPLAY_CAP) : full,
    contentBytes,
    truncated,
    explanation: explain(segment, snapshot),
    provedBy: provedBy(segment.proof, snapshot),
    elision: elisionOf(segment, full),
  };
}

/**
 * The parts of an elided result: read from a fork's text (head, marker line, tail as written), or for
 * a result a fork would elide, cut as the fork would cut it under the proof's own thresholds.
 */
function elisionOf(segment: Segment, text: string): SegmentElision | null {
  const p = segment.proof;
  if (p?.class === 'tombstone' && p.elided) {
    const r = parseElided(text)[0];
    if (!r) return null;
    const markerEnd = text.indexOf('\n', r.head.length);
    return { head: r.head, marker: text.slice(r.head.length, markerEnd), tail: r.tail, sha256Prefix: r.marker.sha256Prefix, middleLines: r.marker.lines, middleChars: r.marker.charsShown, inFork: true };
  }
  if (p?.class !== 'elided') return null;
  const split = splitForElision(text, p.keep);
  if (!split) return null;
  const marker = formatElisionMarker(split.middleLines, split.middle.length, createHash('sha256').update(split.middle, 'utf8').digest('hex'));
  const shown = parseElided(`${split.head}${marker}\n${split.tail}`)[0];
  return { head: split.head, marker, tail: split.tail, sha256Prefix: shown?.marker.sha256Prefix ?? '', middleLines: split.middleLines, middleChars: shown?.marker.charsShown ?? String(split.middle.length), inFork: false };
}

/** The proof in one plain sentence. */
function explain(segment: Segment, snapshot: ClassifiedSnapshot): string {
  const p = segment.proof;
  if (!p) {
    if (segment.class !== 'live') return `Classified ${segment.class}.`;
    if (segment.isError) return 'Live: errors are never evicted — they explain what went wrong.';
    if (segment.kind === 'thinking') return 'Live: thinking blocks are never modified (the API rejects changed thinking).';
    if (segment.kind === 'prompt' || segment.kind === 'assistant-text') return 'Live: prose is never evicted.';
    if (segment.kind === 'compact-summary') return 'Live: the compaction summary carries everything before it.';
    if (segment.protected) return 'Live: it is in the protected tail of the conversation.';
    return 'Live: nothing proves it dead, so it stays.';
  }
  const when = (iso: string | undefined) => (iso ? ` at ${shortTime(iso)}` : '');
  const rel = (path: string) => relative(path, snapshot.session.cwd);
  switch (p.class) {
    case 'gone':
      return `The file ${rel(p.path)} no longer exists: ${p.checkedPath} was checked${when(p.checkedAt)} and is missing.`;
    case 'stale-drift':
      return `The file ${rel(p.path)} changed since it was read: ${p.range.full ? 'the whole file as captured differs' : `${rangeText(p.range)} as captured differ`} from the file now (${p.checkedPath}, checked${when(p.checkedAt)}).`;
    case 'stale-superseded': {
      const ref = snapshot.segments.find((s) => s.id === p.by.segmentId);
      const byTime = p.by.timestamp ?? ref?.timestamp;
      const later = `A later ${p.by.kind} of ${rel(p.path)} (line ${p.by.line}${when(byTime)})`;
      if (segment.kind === 'tool-input') return `${later} shows the file as it is after this change, so the text this ${segment.toolName ?? 'edit'} carries is no longer needed.`;
      return p.by.kind === 'write'
        ? `${later} replaced the whole file, so this read of ${rangeText(p.range)} is out of date.`
        : `${later} covers ${rangeText(p.range)} of this read.`;
    }
    case 'duplicate':
      return `An identical copy (${p.bytes.toLocaleString()} bytes, sha-256 ${p.hash.slice(0, 12)}…) is kept at line ${p.kept.line}; this is one of ${p.copies} copies.`;
    case 'spent':
      return `Inferred, not proven: ${p.reason.replace(/[;,]\s*inferred, not proven\.?$/, '')}.`;
    case 'elided':
      return `Lossy, recoverable: ${p.reason}. A fork keeps its first and last lines and archives the middle, which the agent can recall (glassbox mcp) and you can show from the window.`;
    case 'tombstone':
      if (p.elided) return `Elided by the fork that wrote this session (lossy, recoverable): its first and last lines are the result's own, and the marker names the middle, which is in the archive (sha256 ${p.sha256Prefix ?? '?'}…). The agent can recall it (glassbox mcp); you can show it here.`;
      return `A tombstone an earlier fork wrote in place of a payload; it is never planned again.${p.sha256Prefix ? ` The payload is in the archive (sha256 ${p.sha256Prefix}…): show it from the window.` : ''}`;
  }
}

function shortTime(iso: string): string {
  const d = new Date(iso);
  return Number.isFinite(d.getTime()) ? d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : iso;
}

function relative(path: string, cwd: string | null): string {
  return cwd && path.startsWith(cwd + '/') ? path.slice(cwd.length + 1) : path;
}

function rangeText(r: { startLine: number; endLine: number; full: boolean }): string {
  return r.full ? 'the whole file' : `lines ${r.startLine}–${r.endLine}`;
}

function provedBy(p: Proof | undefined, snapshot: ClassifiedSnapshot): SegmentDetail['provedBy'] {
  if (!p) return null;
  const ref = p.class === 'stale-superseded' ? p.by : p.class === 'duplicate' ? p.kept : null;
  if (!ref) return null;
  const target = snapshot.segments.find((s) => s.id === ref.segmentId);
  const label = p.class === 'stale-superseded' ? `the later ${p.by.kind} (line ${ref.line})` : `the kept copy (line ${ref.line})`;
  return { segmentId: target?.id ?? ref.segmentId, line: ref.line, label };
}
