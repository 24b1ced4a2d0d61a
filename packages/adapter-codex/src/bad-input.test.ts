import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFatal } from '@glassbox/core';
import { readSessionFile } from '@glassbox/adapter-claude-code/node';
import { describe, expect, it } from 'vitest';
import { recogniseFirstRecord } from './generation';
import { readRolloutFile } from './node/read-file';
import { RolloutParser } from './parser';
import { CLAUDE_TRANSCRIPT, MOONMIND_057, MOONMIND_058, allRollouts, firstRollout, linesOf } from '@glassbox/test-support/codex/corpus';

const scratch = mkdtempSync(join(tmpdir(), 'codex-bad-'));
/** A real rollout, changed as the test says, written to a scratch file (never a hand-written rollout). */
function variant(name: string, lines: string[], endsWithNewline = true): string {
  const path = join(scratch, name);
  writeFileSync(path, lines.join('\n') + (endsWithNewline ? '\n' : ''));
  return path;
}

describe('recognition by content', () => {
  it('knows every rollout in the corpus, of both generations', () => {
    for (const path of allRollouts()) {
      const r = recogniseFirstRecord(JSON.parse(linesOf(path)[0] as string));
      expect(r.kind, path).toBe('codex');
    }
    expect(recogniseFirstRecord(JSON.parse(linesOf(MOONMIND_058)[0]!))).toEqual({ kind: 'codex', generation: 'envelope' });
    expect(recogniseFirstRecord(JSON.parse(linesOf(firstRollout('01-shell-reads-and-patch'))[0]!))).toEqual({ kind: 'codex', generation: 'paginated' });
  });

  it('knows the bare 2025 header: session_meta without its envelope', () => {
    // The 2025 generation before session_meta wrote the meta object itself as line 1; this is the
    // payload of a real 0.58 session_meta, unwrapped the same way.
    const meta = JSON.parse(linesOf(MOONMIND_058)[0]!).payload;
    expect(recogniseFirstRecord({ id: meta.id, timestamp: meta.timestamp, instructions: meta.instructions })).toEqual({ kind: 'codex', generation: 'bare' });
  });

  it('refuses a Claude Code transcript, with file and line', () => {
    const s = readRolloutFile(CLAUDE_TRANSCRIPT);
    expect(s.nodes.size).toBe(0);
    expect(isFatal(s.problems)).toBe(true);
    expect(s.problems[0]).toMatchObject({ code: 'not_a_transcript', file: CLAUDE_TRANSCRIPT, line: 1 });
    expect(s.problems[0]!.message).toContain('Claude Code transcript, not a Codex rollout');
  });

  it('is not mistaken by the Claude Code adapter, for every Codex rollout', () => {
    for (const path of allRollouts()) {
      const r = readSessionFile(path);
      expect(r.session.problems.some((p) => p.code === 'not_a_transcript' && p.line === 1), path).toBe(true);
      expect(r.session.nodes.size).toBe(0);
    }
  });
});

describe('bad input is reported with file and line, never mis-parsed', () => {
  it('a rollout of an unknown generation: records in the envelope but no session_meta first', () => {
    const path = variant('no-meta.jsonl', linesOf(firstRollout('01-shell-reads-and-patch')).slice(1));
    const s = readRolloutFile(path);
    expect(s.nodes.size).toBe(0);
    expect(s.problems[0]).toMatchObject({ code: 'not_a_transcript', severity: 'error', file: path, line: 1 });
    expect(s.problems[0]!.message).toContain('unknown generation');
  });

  it('a bare item first, with no header', () => {
    const lines = linesOf(MOONMIND_058);
    const item = JSON.parse(lines[1]!).payload;
    const path = variant('bare-item-first.jsonl', [JSON.stringify(item), ...lines.slice(2)]);
    const s = readRolloutFile(path);
    expect(s.problems[0]).toMatchObject({ code: 'not_a_transcript', line: 1 });
    expect(s.problems[0]!.message).toContain('unknown generation');
  });

  it('a torn last line: a warning naming it; everything before parses as in the whole file', () => {
    const lines = linesOf(firstRollout('02-duplicates-deletes-errors'));
    const last = lines[lines.length - 1]!;
    const torn = variant('torn.jsonl', [...lines.slice(0, -1), last.slice(0, Math.floor(last.length / 2))], false);
    const before = variant('before.jsonl', lines.slice(0, -1));
    const s = readRolloutFile(torn);
    const b = readRolloutFile(before);
    expect(s.problems).toEqual([expect.objectContaining({ code: 'torn_last_line', severity: 'warning', file: torn, line: lines.length })]);
    expect(s.order).toEqual(b.order);
    expect(s.requests).toEqual(b.requests);
  });

  it('an invalid line in the middle: skipped with a warning, as Codex skips it', () => {
    const lines = linesOf(firstRollout('01-shell-reads-and-patch'));
    const path = variant('invalid-middle.jsonl', [...lines.slice(0, 10), '{not json', ...lines.slice(10)]);
    const s = readRolloutFile(path);
    expect(s.problems).toEqual([expect.objectContaining({ code: 'invalid_json', file: path, line: 11 })]);
    expect(s.stats.invalidLines).toBe(1);
  });

  it('a call_id without its output, and an output without its call', () => {
    const lines = linesOf(firstRollout('01-shell-reads-and-patch'));
    const outAt = lines.findIndex((l) => l.includes('"type":"function_call_output"'));
    const callId = JSON.parse(lines[outAt]!).payload.call_id as string;
    const callLine = lines.findIndex((l) => l.includes('"type":"function_call"') && l.includes(callId)) + 1;
    const dropped = variant('no-output.jsonl', lines.filter((_, i) => i !== outAt));
    const s = readRolloutFile(dropped);
    expect(s.problems).toEqual([expect.objectContaining({ code: 'unanswered_tool_use', file: dropped, line: callLine })]);
    expect(s.problems[0]!.message).toContain(callId);
    expect(s.toolCalls.get(callId)!.resultUuid).toBeUndefined();

    const orphan = variant('no-call.jsonl', lines.filter((_, i) => i !== callLine - 1));
    const o = readRolloutFile(orphan);
    expect(o.problems).toEqual([expect.objectContaining({ code: 'orphan_tool_result', file: orphan, line: outAt })]);
  });

  it('a compaction without its replacement history (2026): reported, and the window is not cut', () => {
    const lines = linesOf(firstRollout('03-long-session-compaction')).map((l) => {
      const r = JSON.parse(l);
      if (r.type !== 'compacted') return l;
      delete r.payload.replacement_history;
      return JSON.stringify(r);
    });
    const path = variant('no-history.jsonl', lines);
    const s = readRolloutFile(path);
    expect(s.problems.filter((p) => p.code === 'invalid_record').map((p) => p.line)).toEqual([63, 158]);
    expect([...s.nodes.values()].some((n) => n.kind === 'compact-boundary')).toBe(false);
    expect(s.prunedRecords).toBe(0);
  });

  it('an empty file and a file that is not JSON', () => {
    const empty = variant('empty.jsonl', [], false);
    expect(readRolloutFile(empty).problems).toEqual([expect.objectContaining({ code: 'file_empty', file: empty })]);
    const text = variant('text.jsonl', ['hello', 'world']);
    const t = readRolloutFile(text);
    expect(isFatal(t.problems)).toBe(true);
    expect(t.problems.filter((p) => p.code === 'invalid_json').map((p) => p.line)).toEqual([1, 2]);
  });

  it('a missing file', () => {
    const s = readRolloutFile(join(scratch, 'nope.jsonl'));
    expect(s.problems[0]).toMatchObject({ code: 'file_missing' });
  });

  it('parses the same one line at a time as from the file', () => {
    const lines = linesOf(MOONMIND_057);
    const p = new RolloutParser({ path: MOONMIND_057 });
    let offset = 0;
    lines.forEach((l, i) => {
      const n = Buffer.byteLength(l);
      p.push(l, i + 1, offset, n);
      offset += n + 1;
    });
    const s = p.finish(true);
    const f = readRolloutFile(MOONMIND_057);
    expect(s.order).toEqual(f.order);
    expect([...s.nodes.values()].map((n) => [n.offset, n.length])).toEqual([...f.nodes.values()].map((n) => [n.offset, n.length]));
  });
});
