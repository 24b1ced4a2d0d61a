import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../node/read-file';
import { compactionSummaryText, recordBlockText } from '../record-text';

const GENERATED = resolve(import.meta.dirname, '../../../../fixtures/corpus/generated');
const file = (scenario: string, sub = ''): string => {
  const dir = join(GENERATED, scenario, 'claude-project', sub);
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
};

describe('compaction records', () => {
  it('a manual /compact with instructions: metadata, summary, instructions, re-attached files, first response', () => {
    const path = file('16-compact-instructions');
    const { session } = readSessionFile(path);
    const [e, ...rest] = session.compactions ?? [];
    expect(rest).toEqual([]);
    const raw = JSON.parse(readFileSync(path, 'utf8').split('\n')[(e?.line ?? 0) - 1] ?? '{}');
    expect(e).toMatchObject({
      line: 20,
      trigger: 'manual',
      isSidechain: false,
      leafBefore: raw.logicalParentUuid,
      preTokensMetadata: raw.compactMetadata.preTokens,
      postTokensMetadata: raw.compactMetadata.postTokens,
      preserved: [raw.compactMetadata.preservedSegment.headUuid],
      instructions: 'keep the decision about the threshold',
      summary: { line: 21 },
    });
    expect(e?.reattached.filter((r) => r.kind === 'file').map((r) => r.path?.split('/').pop())).toEqual(['inventory.py', 'config.json']);
    // "Continue from where you left off." and the client's own "No response requested." are not a response.
    expect(e?.firstResponse?.line).toBe(35);
  });

  it('two automatic compactions, and a subagent that compacted in its own file', () => {
    const twice = readSessionFile(file('15-autocompact-twice')).session.compactions ?? [];
    expect(twice.map((e) => [e.trigger, e.line, e.summary?.line])).toEqual([['auto', 16, 17], ['auto', 34, 35]]);
    const sub = readdirSync(join(GENERATED, '17-subagent-compact', 'claude-project')).find((d) => !d.endsWith('.jsonl') && d !== 'memory') ?? '';
    const subagent = readSessionFile(file('17-subagent-compact', join(sub, 'subagents'))).session.compactions ?? [];
    expect(subagent.map((e) => [e.trigger, e.isSidechain, e.line])).toEqual([['auto', true, 9]]);
  });

  it('reads back the text the model read and the summary it wrote', () => {
    const path = file('18-compaction-kept-dropped');
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(recordBlockText(lines[13] ?? '', 0, null)).toBe('Exit code 3\nsync failed: ECONNRESET while posting batch 7 to https://warehouse.example/api/v2/stock\nsyncing inventory to warehouse-eu-2');
    expect(recordBlockText(lines[12] ?? '', 0, null)).toContain('command: python3 -c');
    const summary = compactionSummaryText(lines[30] ?? '') ?? '';
    expect(summary.startsWith('1. Primary Request and Intent:')).toBe(true);
    expect(summary.endsWith('   - none')).toBe(true);
  });
});
