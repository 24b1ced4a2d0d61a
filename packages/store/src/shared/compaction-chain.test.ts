// The compaction x-ray in one pass over the file: it must give exactly what parsing the file up to each
// compaction gives, on every corpus session with compactions and on a long chain of compactions, while
// reading each line once (re-parsing up to each compaction grew with the square of their number: 1,000
// compactions took minutes). The long chain is made of fixture 18's real records repeated with fresh
// ids, each repetition continuing the last, in memory at test time.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { claudeCodeLocator } from '@glassbox/adapter-claude-code/node';
import { compactionHistory, type TranscriptPort } from '@glassbox/analysis';
import type { AgentFormat, CompactionHistory, LoadedSession, Session } from '@glassbox/core';
import { compactionHistories, memoryLineSource, type LineSource } from './compaction-port';
import { nodeAnalysisPorts } from './repo-port';
import { CORPUS } from '../test-corpus';

const COMPACTED = ['04-subagent-compact-multiturn', '05-autocompact', '07-interactive-tui', '15-autocompact-twice', '16-compact-instructions', '17-subagent-compact', '18-compaction-kept-dropped'];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const API_ID = /\b(msg|req|toolu)_([A-Za-z0-9]{8})/g;

const sessionFile = (scenario: string): string => {
  const dir = join(CORPUS, 'generated', scenario, 'claude-project');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
};

/** The x-ray as it was made before: a parse of the file up to each compaction, from the start. */
function perCompaction(format: AgentFormat, session: Session, source: LineSource): CompactionHistory {
  const port: TranscriptPort = {
    sessionBefore(line) {
      const parser = format.createParser({ path: session.path, fallbackId: session.id, keepCapturedText: true });
      source.scan(line - 1, (text, n, offset, length) => parser.push(text, n, offset, length));
      return parser.finish(true);
    },
    blockText: (offset, length, blockIndex, cwd) => format.blockText?.(source.line(offset, length), blockIndex, cwd) ?? null,
    summaryText: (event) => (event.summary && format.compactionSummary ? format.compactionSummary(source.line(event.summary.offset, event.summary.length)) : null),
  };
  return compactionHistory(session, port, nodeAnalysisPorts(), { repoRoot: null, agentId: null });
}

/** A line source that counts the lines it feeds. */
function counting(source: LineSource): { source: LineSource; scanned: () => number } {
  let scanned = 0;
  return {
    source: {
      scan: (last, sink) =>
        source.scan(last, (...a) => {
          scanned++;
          sink(...a);
        }),
      line: (o, l) => source.line(o, l),
    },
    scanned: () => scanned,
  };
}

/** Fixture 18 (two compactions) followed by `reps` repetitions of its part from the first compaction on, each continuing the one before. */
function longChain(reps: number): Buffer {
  const lines = readFileSync(join(CORPUS, 'generated/18-compaction-kept-dropped/transcript.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
  const records = lines.map((l) => JSON.parse(l) as { type?: string; subtype?: string; uuid?: string; sessionId?: string });
  const sessionId = records.find((r) => r.sessionId)?.sessionId as string;
  const first = records.findIndex((r) => r.subtype === 'compact_boundary');
  const messages = records.filter((r) => r.type === 'user' || r.type === 'assistant');
  let leaf = messages[messages.length - 1]?.uuid as string;
  const out = [...lines];
  for (let rep = 1; rep <= reps; rep++) {
    const tag = rep.toString(16).padStart(8, '0');
    const rename = (l: string) => l.replace(UUID, (u) => (u === sessionId ? u : `${tag}${u.slice(8)}`)).replace(API_ID, (_m, kind: string) => `${kind}_${tag}`);
    lines.slice(first).forEach((l, i) => {
      if (i > 0) return void out.push(rename(l));
      const boundary = JSON.parse(rename(l)) as Record<string, unknown>;
      boundary['logicalParentUuid'] = leaf;
      out.push(JSON.stringify(boundary));
    });
    leaf = `${tag}${leaf.slice(8)}`;
  }
  return Buffer.from(out.join('\n') + '\n');
}

function loadFromBuffer(buf: Buffer, path: string): LoadedSession {
  const parser = claudeCodeFormat.createParser({ path, fallbackId: 'chain' });
  memoryLineSource(buf).scan(Infinity, (t, n, o, l) => parser.push(t, n, o, l));
  return { session: parser.finish(true), subagents: [], problems: [] } as unknown as LoadedSession;
}

describe('the compaction x-ray in one pass', () => {
  it.each(COMPACTED)('%s: the same x-ray as a parse up to each compaction', (scenario) => {
    const path = sessionFile(scenario);
    const loaded = claudeCodeLocator.load(path);
    const [main] = compactionHistories(claudeCodeFormat, loaded, { repoRoot: null });
    const source = memoryLineSource(readFileSync(path));
    expect(main).toEqual(perCompaction(claudeCodeFormat, loaded.session, source));
  });

  it('a chain of 61 compactions: the same x-ray, every line read once', () => {
    const buf = longChain(30);
    const lines = buf.toString('utf8').trimEnd().split('\n').length;
    const loaded = loadFromBuffer(buf, '/chain/session.jsonl');
    const once = counting(memoryLineSource(buf));
    const [main] = compactionHistories(claudeCodeFormat, loaded, { repoRoot: null }, once.source);
    expect(main?.compactions).toHaveLength(62);
    const each = counting(memoryLineSource(buf));
    expect(main).toEqual(perCompaction(claudeCodeFormat, loaded.session, each.source));
    expect(once.scanned()).toBeLessThan(lines);
    // What it replaced read the file up to each compaction: about half the file per compaction.
    expect(each.scanned()).toBeGreaterThan(20 * lines);
  });

  it('a snapshot is what finishing the parse there gives, and the parse goes on unchanged', () => {
    const buf = readFileSync(sessionFile('15-autocompact-twice'));
    const all = buf.toString('utf8').replace(/\n$/, '').split('\n');
    const parser = claudeCodeFormat.createParser({ path: '/s.jsonl', fallbackId: 's', keepCapturedText: true });
    let offset = 0;
    all.forEach((text, i) => {
      if (i % 7 === 3) {
        const fresh = claudeCodeFormat.createParser({ path: '/s.jsonl', fallbackId: 's', keepCapturedText: true });
        let o = 0;
        all.slice(0, i).forEach((t, j) => {
          fresh.push(t, j + 1, o, Buffer.byteLength(t));
          o += Buffer.byteLength(t) + 1;
        });
        expect(parser.snapshot?.()).toEqual(fresh.finish(true));
      }
      parser.push(text, i + 1, offset, Buffer.byteLength(text));
      offset += Buffer.byteLength(text) + 1;
    });
    const whole = claudeCodeFormat.createParser({ path: '/s.jsonl', fallbackId: 's', keepCapturedText: true });
    memoryLineSource(buf).scan(Infinity, (t, n, o, l) => whole.push(t, n, o, l));
    expect(parser.finish(true)).toEqual(whole.finish(true));
  });
});
