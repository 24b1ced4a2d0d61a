import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { readSessionFile } from '@glassbox/adapter-claude-code/node';
import type { CompactionKey } from '@glassbox/core';
import { generatedSession } from '@glassbox/test-support/analysis/fixtures';
import { SummaryText, carriedBy } from './judge';
import { errorLines, identifiers } from './keys';

// Fixture 18: the real client compacted twice; the model's two summaries were scripted to name one file
// by its full path, one by its base name only, and to quote one error line and not the other.
const PATH = generatedSession('18-compaction-kept-dropped');
const CWD = '/tmp/cc-harness-work/18-compaction-kept-dropped/project';
const { session } = readSessionFile(PATH);
const lines = readFileSync(PATH, 'utf8').split('\n');
const summaries = (session.compactions ?? []).map((e) => {
  const s = e.summary;
  if (!s) throw new Error(`no summary for the compaction at line ${e.line}`);
  return claudeCodeFormat.compactionSummary?.(lines[s.line - 1] ?? '') ?? '';
});
const [first = '', second = ''] = summaries;
const path = (p: string) => ({ kind: 'path' as const, text: p, primary: true });

describe('the kept/dropped rule', () => {
  it('reads the summaries the model wrote, without the client wording around them', () => {
    expect(summaries).toHaveLength(2);
    expect(first.startsWith('1. Primary Request and Intent:')).toBe(true);
    expect(first).not.toContain('This session is being continued');
    expect(first).not.toContain('If you need specific details');
  });

  it('a path present verbatim is kept; present only as its base name is not; absent is not', () => {
    const summary = new SummaryText(first, CWD);
    expect(summary.find(path(`${CWD}/src/config.json`))).toBe('verbatim');
    expect(summary.find(path(`${CWD}/src/report.py`))).toBe('basename');
    expect(summary.find(path(`${CWD}/src/inventory.py`))).toBe('no');
  });

  it('an absolute path is quoted by its form relative to the working directory, and a relative one by its absolute form', () => {
    expect(second).toContain('src/inventory.py');
    expect(second).not.toContain(`${CWD}/src/inventory.py`);
    expect(new SummaryText(second, CWD).find(path(`${CWD}/src/inventory.py`))).toBe('verbatim');
    expect(new SummaryText(first, CWD).find(path('src/config.json'))).toBe('verbatim');
    // Without the working directory the relative spelling cannot be checked.
    expect(new SummaryText(second, null).find(path(`${CWD}/src/inventory.py`))).toBe('no');
  });

  it('a path is not quoted by a longer path that ends with it', () => {
    // The second summary names `src/inventory.py`; a file `inventory.py` in the project root is another file.
    expect(new SummaryText(second, CWD).find(path(`${CWD}/inventory.py`))).toBe('no');
  });

  it('commands and error lines count only verbatim, whitespace runs aside', () => {
    const summary = new SummaryText(second, CWD);
    expect(summary.find({ kind: 'command', text: 'python3 tests/test_inventory.py', primary: true })).toBe('verbatim');
    expect(summary.find({ kind: 'error', text: 'sync failed: ETIMEDOUT after 30s contacting warehouse-eu-2', primary: true })).toBe('verbatim');
    expect(summary.find({ kind: 'error', text: 'sync failed:\n  ETIMEDOUT after 30s', primary: true })).toBe('verbatim');
    expect(summary.find({ kind: 'error', text: 'sync failed: ECONNRESET while posting batch 7 to https://warehouse.example/api/v2/stock', primary: true })).toBe('no');
    expect(summary.find({ kind: 'identifier', text: 'etimedout', primary: false })).toBe('no');
  });

  it('carries a segment when a key that names it is quoted, partly when only other strings are', () => {
    const k = (primary: boolean, found: CompactionKey['found']): CompactionKey => ({ kind: 'path', text: 'x', primary, found });
    expect(carriedBy([k(true, 'verbatim'), k(false, 'no')])).toBe('summary');
    expect(carriedBy([k(true, 'no'), k(false, 'verbatim')])).toBe('partial');
    expect(carriedBy([k(true, 'basename')])).toBe('partial');
    expect(carriedBy([k(true, 'no'), k(false, 'no')])).toBe('none');
    expect(carriedBy([])).toBe('none');
  });
});

describe('the keys of a segment', () => {
  const resultText = (line: number): string => {
    const record = JSON.parse(lines[line - 1] ?? '{}') as { message: { content: { content: string }[] } };
    return record.message.content[0]?.content ?? '';
  };

  it('takes the error lines of a failed command, not the client prefix', () => {
    const text = resultText(14);
    expect(text.startsWith('Exit code 3')).toBe(true);
    expect(errorLines(text)).toEqual(['sync failed: ECONNRESET while posting batch 7 to https://warehouse.example/api/v2/stock']);
  });

  it('finds snake_case, camelCase and errno-style identifiers, not plain words', () => {
    expect(identifiers('low_stock_threshold renderReport ECONNRESET threshold Inventory ok_a')).toEqual(['low_stock_threshold', 'renderReport', 'ECONNRESET']);
  });
});
