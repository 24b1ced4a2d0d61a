import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-test-io';

const CORPUS = resolve(import.meta.dirname, '../../../../fixtures/corpus');
const file = (name: string): string => {
  const dir = join(CORPUS, 'generated', name, 'claude-project');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
};

describe('glassbox compactions', () => {
  it('--json: one entry per compaction, in the shape the issue names', async () => {
    const r = await runCli(['compactions', file('18-compaction-kept-dropped'), '--json'], {});
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.compactions).toHaveLength(2);
    for (const c of doc.compactions) {
      expect(Object.keys(c)).toEqual(['index', 'trigger', 'at', 'line', 'preTokens', 'preTokensMetadata', 'summaryTokens', 'kept', 'dropped', 'reattached', 'leafChosen']);
      expect(c.leafChosen).toBeNull();
    }
    expect(doc.boundaries).toBe(2);
    expect(doc.unreached).toEqual([]);
    expect(doc.compactions.map((c: { index: number; trigger: string; line: number }) => [c.index, c.trigger, c.line])).toEqual([[1, 'manual', 30], [2, 'auto', 56]]);
    expect(doc.compactions[0].preTokensMetadata).toBe(19576);
    const error = doc.compactions[0].dropped.find((d: { line: number; kind: string }) => d.line === 14 && d.kind === 'tool-result');
    expect(error).toMatchObject({ carried: 'none', isError: true, dead: false });
    expect(doc.subagents).toEqual([]);
  });

  it('prints what each summary kept and dropped, largest first, with what was dead anyway', async () => {
    const s = 'generated/18-compaction-kept-dropped';
    const r = await runCli(['compactions', file('18-compaction-kept-dropped'), '--repo', join(CORPUS, s, 'project-after')], {});
    expect(r.code).toBe(0);
    expect(r.out).toContain('#1  manual  ·  line 30');
    expect(r.out).toContain('asked    keep the error');
    expect(r.out).toMatch(/tool-result src\/report\.py\s+only report\.py\s+dead anyway \(stale-superseded\)/);
    expect(r.out).toContain('#2  auto  ·  line 56');
    expect(r.out).toContain('2 compactions, all on the live conversation.');
  });

  it("lists a subagent's own compactions under it", async () => {
    const r = await runCli(['compactions', file('17-subagent-compact'), '--json'], {});
    const doc = JSON.parse(r.out);
    expect(doc.compactions).toEqual([]);
    expect(doc.subagents.map((s: { agentId: string; compactions: unknown[] }) => [s.agentId, s.compactions.length])).toEqual([['a001b80d91f19a22d', 1]]);
  });

  it('refuses a file that is not a transcript (exit 2)', async () => {
    const r = await runCli(['compactions', join(CORPUS, 'generated', '18-compaction-kept-dropped', 'manifest.json')], {});
    expect(r.code).toBe(2);
  });

  it('x-rays a Codex rollout: each `compacted` record, the window before it rebuilt', async () => {
    const dir = join(CORPUS, 'codex/03-long-session-compaction/sessions/2026/12/01');
    const rollout = join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
    const r = await runCli(['compactions', rollout, '--json'], {});
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.boundaries).toBe(2);
    expect(doc.unreached).toEqual([]);
    expect(doc.compactions.map((c: { index: number; trigger: string; line: number; preTokensMetadata: number }) => [c.index, c.trigger, c.line, c.preTokensMetadata])).toEqual([
      [1, 'unknown', 63, 23288],
      [2, 'unknown', 158, 10997],
    ]);
    // The first prompt, retained verbatim by the replacement history; the reads before it are dropped.
    const kept = doc.compactions[0].kept.find((k: { line: number }) => k.line === 8);
    expect(kept).toMatchObject({ kind: 'prompt', carried: 'preserved' });
    expect(doc.compactions[0].dropped.some((d: { line: number; kind: string }) => d.line < 63 && d.kind === 'tool-result')).toBe(true);
    const text = await runCli(['compactions', rollout], {});
    expect(text.out).toContain('2 compactions, all on the live conversation.');
    expect(text.out).toContain('#1  unknown  ·  line 63');
    expect(text.out).toContain('#2  unknown  ·  line 158');
  });
});
