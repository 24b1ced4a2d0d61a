import { describe, expect, it } from 'vitest';
import type { ReadOp, Session, ToolCall } from '@glassbox/core';
import { analyzeSession } from '@glassbox/analysis';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { readRequest } from './request';
import { requestEnvironment } from './environment';
import { requestSession, segmentPlace } from './session';
import { RECORDED_RUNS, recordedRun, type RecordedRun } from '@glassbox/test-support/request-anthropic/recorded';

function lastRequestSession(run: RecordedRun): Session {
  const last = run.exchanges[run.exchanges.length - 1];
  if (!last) throw new Error('no exchange');
  const read = readRequest(last.body);
  if (!read.ok) throw new Error(read.reason);
  const built = requestSession(read.request, { conversationId: 'test', environment: requestEnvironment(read.request) });
  if (!built.ok) throw new Error(built.reason);
  return built.session;
}

const opFacts = (c: ToolCall): unknown => {
  const op = c.op;
  if (op.kind !== 'read') return { name: c.name, kind: op.kind, source: c.source.label, isError: c.isError };
  const r: ReadOp = op;
  return { name: c.name, kind: r.kind, path: r.path, startLine: r.startLine, numLines: r.numLines, full: r.full, unchanged: r.unchanged, capturedHash: r.capturedHash, isError: c.isError };
};

describe.each(RECORDED_RUNS)('a request as the neutral model (%s)', (name) => {
  const run = recordedRun(name);
  const fromRequest = lastRequestSession(run);
  const { session: fromTranscript } = loadSessionWithSubagents(run.transcript);

  it('reads the same tool calls as the transcript adapter reads from the session the same run wrote', () => {
    expect(fromRequest.toolCalls.size).toBeGreaterThan(15);
    let reads = 0;
    for (const [id, call] of fromRequest.toolCalls) {
      const theirs = fromTranscript.toolCalls.get(id);
      if (!theirs) throw new Error(`the transcript has no call ${id}`);
      expect(opFacts(call), `${call.name} ${call.source.label}`).toEqual(opFacts(theirs));
      if (call.op.kind === 'read' && call.op.full) reads++;
    }
    // The request carries no client-side mirror: the whole-file reads are known from the numbered text and the tool's default.
    expect(reads).toBeGreaterThan(4);
  });

  it('proves dead exactly what inspect proves dead in the transcript', () => {
    const mapping = { repoRoot: run.projectAfter };
    const fromReq = analyzeSession(fromRequest, nodeAnalysisPorts(), mapping);
    const fromFile = analyzeSession(fromTranscript, nodeAnalysisPorts(), mapping);
    const dead = (segments: typeof fromReq.segments) =>
      segments
        .filter((s) => s.class !== 'live' && (s.kind === 'tool-result' || s.kind === 'tool-input'))
        .map((s) => `${s.toolUseId}:${s.kind}:${s.class}:${s.protected}`)
        .sort();
    expect(dead(fromReq.segments)).toEqual(dead(fromFile.segments));
    expect(new Set(fromReq.segments.filter((s) => s.class !== 'live').map((s) => s.class))).toEqual(new Set(['gone', 'stale-drift', 'stale-superseded', 'duplicate']));
  });

  it('names each segment by the message and block it is in', () => {
    for (const node of fromRequest.nodes.values()) {
      for (const b of node.blocks) expect(segmentPlace(`${node.uuid}:${b.index}`)).toEqual({ message: node.line - 1, block: b.index });
    }
  });
});
