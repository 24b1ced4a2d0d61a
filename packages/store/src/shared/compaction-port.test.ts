import { readFileSync, readdirSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeLocator } from '@glassbox/adapter-claude-code/node';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import type { CompactionHistory, CompactionItem } from '@glassbox/core';
import { compactionHistories, memoryLineSource } from './compaction-port';
import { CORPUS } from '../test-corpus';

const sessionFile = (scenario: string): string => {
  const dir = join(CORPUS, 'generated', scenario, 'claude-project');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
};
const histories = (path: string): CompactionHistory[] => compactionHistories(claudeCodeFormat, claudeCodeLocator.load(path), { repoRoot: null });

interface RawRecord {
  uuid?: string;
  parentUuid?: string | null;
  logicalParentUuid?: string;
  type?: string;
  subtype?: string;
  isSidechain?: boolean;
  leafUuid?: string;
  compactMetadata?: { preTokens?: number };
}

/**
 * The compaction boundaries the live conversation passes through, counted on the raw records without
 * Glassbox: from the last record's chain, each boundary's logical parent leads to the chain before it.
 */
function liveBoundaries(path: string): RawRecord[] {
  const records = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RawRecord);
  const byUuid = new Map(records.filter((r) => r.uuid).map((r) => [r.uuid as string, r]));
  const messages = records.filter((r) => r.type === 'user' || r.type === 'assistant');
  const found: RawRecord[] = [];
  let cur = messages[messages.length - 1];
  while (cur) {
    if (cur.subtype === 'compact_boundary') {
      found.unshift(cur);
      cur = cur.logicalParentUuid ? byUuid.get(cur.logicalParentUuid) : undefined;
      continue;
    }
    cur = cur.parentUuid ? byUuid.get(cur.parentUuid) : undefined;
  }
  return found;
}

const COMPACTED = ['04-subagent-compact-multiturn', '05-autocompact', '07-interactive-tui', '15-autocompact-twice', '16-compact-instructions', '18-compaction-kept-dropped'];

describe('the compactions of a session', () => {
  it('are the boundaries on the live chain, each with its reported size within 1 % of the size the client wrote', () => {
    for (const scenario of COMPACTED) {
      const path = sessionFile(scenario);
      const [main] = histories(path);
      const raw = liveBoundaries(path);
      expect(main?.compactions.map((c) => c.xray.line), scenario).toEqual(raw.map((r) => lineOf(path, r.uuid)));
      expect(main?.compactions.length, scenario).toBeGreaterThan(0);
      for (const c of main?.compactions ?? []) {
        const meta = c.xray.preTokensMetadata ?? 0;
        expect(meta, scenario).toBeGreaterThan(0);
        expect(Math.abs((c.xray.preTokens ?? 0) - meta) / meta, `${scenario} #${c.xray.index}`).toBeLessThan(0.01);
        expect(c.xray.kept.length + c.xray.dropped.length, scenario).toBeGreaterThan(0);
      }
      expect(main?.problems, scenario).toEqual([]);
    }
  });

  it('finds none in sessions that never compacted, and none in 1.x files whose summary record only titles another conversation', () => {
    expect(histories(sessionFile('01-superseded-reads'))[0]?.compactions).toEqual([]);
    const public1x = join(CORPUS, 'public', 'd-kimuson__claude-code-viewer', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
    expect(readFileSync(public1x, 'utf8').split('\n')[0]).toContain('"type":"summary"');
    const [main] = histories(public1x);
    expect(main?.boundaries).toBe(0);
    expect(main?.compactions).toEqual([]);
  });

  it('x-rays a subagent that compacted in its own file, on its own thread', () => {
    const [main, sub] = histories(sessionFile('17-subagent-compact'));
    expect(main?.compactions).toEqual([]);
    expect(sub?.agentId).toBe('a001b80d91f19a22d');
    expect(sub?.compactions.map((c) => [c.xray.trigger, c.xray.line, c.xray.preTokensMetadata])).toEqual([['auto', 9, 90185]]);
    expect(sub?.compactions[0]?.xray.preTokens).toBe(90040);
  });

  it('judges each segment of the window before a compaction against its summary (fixture 18, first compaction)', () => {
    const [main] = histories(sessionFile('18-compaction-kept-dropped'));
    const first = main?.compactions[0];
    if (!first) throw new Error('no compaction');
    expect(first.xray.trigger).toBe('manual');
    expect(first.instructions).toBe('keep the error');
    const at = (line: number, kind = 'tool-result'): CompactionItem | undefined => [...first.xray.kept, ...first.xray.dropped].find((i) => i.line === line && i.kind === kind);
    // The prompt is quoted in the summary's list of user messages.
    expect(at(3, 'prompt')?.carried).toBe('summary');
    // The config read: its path is in the summary, and the client attached the file again.
    expect(at(8)?.carried).toBe('reattached');
    // The failed sync: neither its command nor its error line is in the summary. An error, not dead.
    expect(at(14)).toMatchObject({ carried: 'none', isError: true, dead: false });
    expect(at(14)?.keys.filter((k) => k.primary).map((k) => k.kind)).toEqual(['command', 'error']);
    expect(at(14)?.keys.map((k) => k.text)).toEqual(expect.arrayContaining(['https://warehouse.example/api/v2/stock', 'ECONNRESET']));
    // The grep: only the identifier it searched for is in the summary.
    expect(at(17)?.carried).toBe('partial');
    // The first read of report.py, superseded by the read after the edit: named only as report.py, dead anyway.
    expect(at(11)).toMatchObject({ carried: 'partial', dead: true, class: 'stale-superseded' });
    expect(at(11)?.keys.find((k) => k.kind === 'path' && k.primary)?.found).toBe('basename');
    // The last reply was kept verbatim by the client.
    expect(at(25, 'assistant-text')?.carried).toBe('preserved');
    // Dropped largest first; the figures add up.
    const sizes = first.xray.dropped.map((d) => d.tokens);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const f = first.figures;
    expect(f.keptTokens + f.droppedTokens).toBe(f.windowTokens);
    expect(f.droppedDeadTokens).toBe(first.xray.dropped.filter((d) => d.dead).reduce((n, d) => n + d.tokens, 0));
    expect(f.droppedDeadTokens).toBeGreaterThan(0);
  });

  it('the second compaction quotes the error line it kept, and its window starts at the first summary', () => {
    const [main] = histories(sessionFile('18-compaction-kept-dropped'));
    const second = main?.compactions[1];
    if (!second) throw new Error('no second compaction');
    expect(second.xray.trigger).toBe('auto');
    const all = [...second.xray.kept, ...second.xray.dropped];
    expect(all.filter((i) => i.kind === 'compact-summary').map((i) => i.line)).toEqual([main?.compactions[0]?.summary?.line]);
    const tests = all.find((i) => i.kind === 'tool-result' && i.label === 'python3 tests/test_inventory.py');
    expect(tests?.carried).toBe('summary');
    const retry = all.find((i) => i.kind === 'tool-result' && i.isError);
    expect(retry?.keys.find((k) => k.kind === 'error')?.found).toBe('verbatim');
    expect(second.after.length).toBeGreaterThan(0);
    expect(second.after[0]?.kind).toBe('compact-summary');
    expect(second.postTokens).toBeGreaterThan(0);
  });

  it('reads a dropped file from memory the same way as from disk', () => {
    const path = sessionFile('15-autocompact-twice');
    const loaded = claudeCodeLocator.load(path);
    const fromDisk = compactionHistories(claudeCodeFormat, loaded, { repoRoot: null });
    const fromMemory = compactionHistories(claudeCodeFormat, loaded, { repoRoot: null }, memoryLineSource(readFileSync(path)));
    expect(fromMemory).toEqual(fromDisk);
  });

  it('counts a compaction on an abandoned branch, but does not x-ray it', () => {
    // Fixture 18 with one more last-prompt naming the record before the second compaction: the person
    // went back to before it, as resuming from an earlier point does.
    const path = sessionFile('18-compaction-kept-dropped');
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const second = lines.findIndex((l, i) => i > 40 && l.includes('"subtype":"compact_boundary"'));
    const leaf = (JSON.parse(lines[second] ?? '{}') as RawRecord).logicalParentUuid;
    const lastPrompt = lines.filter((l) => l.includes('"type":"last-prompt"')).pop() ?? '';
    const rewound = JSON.stringify({ ...(JSON.parse(lastPrompt) as RawRecord), leafUuid: leaf });
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-compaction-'));
    const variant = join(dir, 'variant.jsonl');
    writeFileSync(variant, [...lines, rewound].join('\n') + '\n');
    const [main] = histories(variant);
    expect(main?.boundaries).toBe(2);
    expect(main?.compactions.map((c) => c.xray.line)).toEqual([lineOf(path, (JSON.parse(lines.find((l) => l.includes('"subtype":"compact_boundary"')) ?? '{}') as RawRecord).uuid)]);
    expect(main?.unreached.map((u) => u.line)).toEqual([second + 1]);
    expect(main?.unreached[0]?.reason).toMatch(/branch the live conversation no longer reaches/);
  });

  it('rebuilds the window before a compaction whose named last record is missing from the last record before it, and follows the chain on', () => {
    // Fixture 18 without the record the second compaction names as the end of the conversation it
    // replaced: files that lost records (a crash mid-write, a copy of part of a session) look like this.
    const path = sessionFile('18-compaction-kept-dropped');
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const second = lines.findIndex((l, i) => i > 40 && l.includes('"subtype":"compact_boundary"'));
    const named = (JSON.parse(lines[second] ?? '{}') as RawRecord).logicalParentUuid;
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-compaction-'));
    const variant = join(dir, 'variant.jsonl');
    writeFileSync(variant, lines.filter((l) => !l.includes(`"uuid":"${named}"`)).join('\n') + '\n');
    const [whole] = histories(path);
    const [main] = histories(variant);
    expect(main?.boundaries).toBe(2);
    expect(main?.unreached).toEqual([]);
    const [first, latest] = main?.compactions ?? [];
    expect(latest?.leafChosen?.reason).toMatch(new RegExp(`\\(${named}\\) is not in the file`));
    // The last conversation record before it in the file: the call whose result was the missing record.
    const removed = lines.findIndex((l) => l.includes(`"uuid":"${named}"`));
    expect(latest?.leafChosen?.line).toBe(removed);
    expect(latest?.xray.preTokens).not.toBeNull();
    expect((latest?.xray.kept.length ?? 0) + (latest?.xray.dropped.length ?? 0)).toBeGreaterThan(0);
    // The earlier compaction is reached through the rebuilt window, as in the whole file.
    expect(first?.xray.line).toBe(whole?.compactions[0]?.xray.line);
    expect(first?.figures).toEqual(whole?.compactions[0]?.figures);
    expect(main?.problems.map((p) => p.code)).toContain('compaction_leaf_chosen');
  });
});

function lineOf(path: string, uuid: string | undefined): number {
  return readFileSync(path, 'utf8').split('\n').findIndex((l) => uuid !== undefined && l.includes(`"uuid":"${uuid}"`)) + 1;
}
