// A Gemini CLI log summarised again after appends, from the summarizer kept in memory, must be what a
// fresh read of the whole file gives — at every line boundary of real 0.61 chats (one with a
// compression's full-replace record), and after a rewrite the kept summarizer cannot follow.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { fixture, linesOf, mainChat } from '@glassbox/test-support/gemini/corpus';
import { runSummarize, type SummarizeResult } from './jobs';
import { forgetKeptSummaries } from './kept-summaries';

const format = defaultAgents().byId('gemini').format;
const dir = mkdtempSync(join(tmpdir(), 'glassbox-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => forgetKeptSummaries());

const summarise = (path: string): SummarizeResult => runSummarize({ type: 'summarize', agent: format.id, path, subagentFile: false, fromOffset: 0, fromLine: 0, state: null }, format);

/** What a pass says of the file, without how it was read (bytes read, the file's inode and time). */
function said(r: SummarizeResult) {
  if (!r.ok) return r;
  const { bytesRead: _b, fingerprint, ...rest } = r;
  return { ...rest, size: fingerprint.size };
}

/** A fresh read of the same bytes, in a file no summarizer was kept for. */
function fresh(text: string): SummarizeResult {
  forgetKeptSummaries();
  const other = join(dir, 'fresh.jsonl');
  writeFileSync(other, text);
  const r = summarise(other);
  forgetKeptSummaries();
  return r;
}

describe.each([
  ['01-reads-edits-gone', '0.61'],
  ['03-compression', '0.61'],
])('a kept Gemini summary (%s v%s)', (scenario, version) => {
  const lines = linesOf(mainChat(fixture(scenario, version)));
  const text = (n: number) => lines.slice(0, n).map((l) => `${l}\n`).join('');

  it('resumed at every line boundary equals the whole file read afresh', () => {
    const whole = said(fresh(text(lines.length)));
    for (let k = 1; k < lines.length; k++) {
      const path = join(dir, `chat-${k}.jsonl`);
      writeFileSync(path, text(k));
      const first = summarise(path);
      appendFileSync(path, text(lines.length).slice(text(k).length));
      const second = summarise(path);
      rmSync(path);
      // Only the appended bytes were read, and what the pass says is the whole file's.
      expect(second.ok && first.ok && second.bytesRead).toBe(second.ok && first.ok ? second.fingerprint.size - first.endOffset : -1);
      expect(said(second)).toEqual(whole);
    }
  });

  it('reads the file whole again when it was rewritten, or ends in a torn line', () => {
    const path = join(dir, 'rewritten.jsonl');
    writeFileSync(path, text(lines.length));
    summarise(path);
    // Same length, other bytes before the kept offset: an edited record, not an append.
    const edited = text(lines.length).replace('"sessionId"', '"sessionID"');
    writeFileSync(path, edited);
    expect(said(summarise(path))).toEqual(said(fresh(edited)));
    writeFileSync(path, text(lines.length - 1));
    summarise(path);
    const torn = text(lines.length).slice(0, -20);
    writeFileSync(path, torn);
    expect(said(summarise(path))).toEqual(said(fresh(torn)));
  });
});
