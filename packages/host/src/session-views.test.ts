import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeCost } from '@glassbox/analysis';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import type { ConversationView, CostView, SegmentDetail, SessionsListResult, SnapshotView } from '@glassbox/contract';
import type { EngineHost } from './host';
import { createHost } from './index';
import { REPO_ROOT, okValue, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  host = null;
  seeded?.cleanup();
  seeded = null;
});

async function open(names: string[]): Promise<{ host: EngineHost; seeded: Seeded }> {
  seeded = seedConfigDir(names);
  host = createHost(seeded.env, { watch: false, samplesDir: null, repoMap: seeded.repoMap });
  await host.start();
  return { host, seeded };
}

describe('the window views of a real session', () => {
  it('snapshot: the model window and auto-compaction from the adapter, the cost, and what each response added', async () => {
    const { host, seeded } = await open(['05-autocompact']);
    const path = seeded.sessions['05-autocompact'] as string;
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    // Recorded on claude-opus-4-8: a 1M window natively, compacted only when a request is refused.
    expect(view.context?.model).toBe('claude-opus-4-8');
    expect(view.context?.limits?.window).toBe(1_000_000);
    expect(view.context?.limits?.autoCompact?.proactive).toBe(false);
    expect(view.context?.limits?.autoCompact?.basis).toContain('2.1.197');
    expect(view.context?.remainderNote).toContain('system prompt');
    // The header's cost is the cost channel's total, at the adapter's dated prices.
    const cost = await okValue<CostView>(host.handle('session:cost', { path }));
    const loaded = loadSessionWithSubagents(path);
    const expected = computeCost(loaded.session, loaded.subagents, claudeCodeFormat.prices);
    expect(cost.total.cost).toBeCloseTo(expected.total.cost ?? NaN, 10);
    expect(view.cost?.usd).toBe(cost.total.cost);
    expect(view.cost?.priceAsOf).toBe(claudeCodeFormat.prices.asOf);
    expect(cost.byModel.map((m) => m.model)).toContain('claude-opus-4-8');
    expect(cost.turns.reduce((n, t) => n + t.responses, 0)).toBeGreaterThan(0);
    expect(cost.total.usage.cacheReadTokens + cost.total.usage.cacheCreationTokens).toBeGreaterThan(0);
    expect(view.turnAdditions).toHaveLength(view.snapshot.turns.length);
  });

  it('set-up the transcript shows (listings, memory) is told apart from the conversation', async () => {
    const { host, seeded } = await open(['02-gone-drift-errors']);
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path: seeded.sessions['02-gone-drift-errors'] }));
    const listings = view.snapshot.segments.filter((s) => s.kind === 'attachment' && /listing/.test(s.source.label));
    expect(listings.length).toBeGreaterThan(0);
    const setupTokens = (view.context?.setup ?? []).reduce((n, p) => n + p.tokens, 0);
    expect(setupTokens).toBe(listings.reduce((n, s) => n + s.tokens, 0));
  });

  it('conversation: every resident segment in order, each call with its result, text as the model reads it, cut for the list', async () => {
    const { host, seeded } = await open(['02-gone-drift-errors']);
    const path = seeded.sessions['02-gone-drift-errors'] as string;
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    const conv = await okValue<ConversationView>(host.handle('session:conversation', { path }));
    // No compaction: the whole session is the window, read in order with each result under its call.
    const flat = conv.items.flatMap((i) => (i.result ? [i, i.result] : [i]));
    expect(flat.map((i) => i.segmentId).sort()).toEqual(view.snapshot.segments.map((s) => s.id).sort());
    expect(conv.compactions).toEqual([]);
    for (const i of conv.items.filter((i) => i.result)) expect(i.result?.line).toBeGreaterThanOrEqual(i.line);
    const gone = flat.find((i) => i.class === 'gone');
    expect(gone?.label).toContain('NOTES.md');
    expect(gone?.dead).toBe(true);
    expect(flat.every((i) => i.resident && i.window === 0)).toBe(true);
    expect(conv.items.find((i) => i.kind === 'prompt')?.text.length).toBeGreaterThan(0);
    for (const i of flat) expect(i.text.length).toBeLessThanOrEqual(16_000);
    const bad = await host.handle('session:conversation', { path: '/etc/passwd.jsonl' });
    expect(bad.ok).toBe(false);
  });

  it('the whole session across two compactions; an attachment shown as what it carries, not as the client wraps it', async () => {
    const { host, seeded } = await open(['15-autocompact-twice']);
    const path = seeded.sessions['15-autocompact-twice'] as string;
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    const reattached = view.snapshot.segments.filter((s) => s.kind === 'attachment' && s.source.label.startsWith('file '));
    expect(reattached.length).toBeGreaterThan(0);
    // The inspector shows what the model reads, the client's simulated Read call included.
    const detail = await okValue<SegmentDetail>(host.handle('segment:detail', { path, segmentId: reattached[0]?.id }));
    expect(detail.content).toContain('Called the Read tool');
    expect(detail.content).not.toMatch(/^\s*\{/);
    const conv = await okValue<ConversationView>(host.handle('session:conversation', { path }));
    expect(conv.compactions.map((c) => c.index)).toEqual([1, 2]);
    expect(conv.items[0]?.window).toBe(0);
    const item = conv.items.find((i) => i.segmentId === reattached[0]?.id);
    expect(item?.attachment).toMatch(/^file .*attached by the client/);
    expect(item?.text).not.toContain('Called the Read tool');
    // The file's own text: the numbered lines the model read, without their numbers.
    const firstLine = detail.content.split('Result of calling the Read tool:\n')[1]?.split('\n')[0]?.replace(/^\d+\t/, '');
    expect(item?.text.startsWith(firstLine ?? '∅')).toBe(true);
    // Exported by the window: a file name, and the text that names both compactions.
    const md = await okValue<{ fileName: string; mime: string; text: string }>(host.handle('session:export', { path, format: 'md' }));
    expect(md.fileName).toMatch(/\.md$/);
    expect(md.text.match(/^## Compaction \d/gm)).toHaveLength(2);
    const bad = await host.handle('session:export', { path, format: 'pdf' });
    expect(bad.ok).toBe(false);
  });

  it('a dropped Codex rollout opens as one, with the window and compaction point its token counts state', async () => {
    const { host } = await open([]);
    const dir = join(REPO_ROOT, 'fixtures/corpus/public/MoonLadderStudios__MoonMind');
    const name = readdirSync(dir).find((n) => n.endsWith('.jsonl')) as string;
    const text = readFileSync(join(dir, name), 'utf8');
    const opened = await okValue<{ path: string }>(host.handle('file:open', { name, text }));
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path: opened.path }));
    expect(view.snapshot.session.agent).toBe('codex');
    // The rollout's own `model_context_window` (its last token count), and Codex's 90 % rule.
    const stated = [...text.matchAll(/"model_context_window":(\d+)/g)].map((m) => Number(m[1])).pop();
    expect(view.context?.limits?.window).toBe(stated);
    expect(view.context?.limits?.autoCompact).toMatchObject({ at: Math.round((stated ?? 0) * 0.9), proactive: true });
    expect(view.context?.remainderNote).toContain('Codex');
    const cost = await okValue<CostView>(host.handle('session:cost', { path: opened.path }));
    expect(cost.total.responses).toBeGreaterThan(0);
  });

  it('list: why a search matched, and a file that is not a transcript is not a session', async () => {
    const { seeded } = await open(['01-superseded-reads', '02-gone-drift-errors']);
    host?.close();
    // A file in a project folder that no client wrote, and an empty one.
    const dir = join(seeded.sessions['01-superseded-reads'] as string, '..');
    writeFileSync(join(dir, 'notes.jsonl'), '{"hello":"world"}\n{"another":"record"}\n');
    writeFileSync(join(dir, 'empty.jsonl'), '');
    copyFileSync(seeded.sessions['01-superseded-reads'] as string, join(dir, 'copy.jsonl'));
    host = createHost({ ...seeded.env, GLASSBOX_DATA_DIR: join(seeded.dir, 'data2') }, { watch: false, samplesDir: null });
    await host.start();
    const all = await okValue<SessionsListResult>(host.handle('sessions:list', {}));
    const names = all.sessions.map((s) => s.path.split('/').pop());
    expect(names).not.toContain('notes.jsonl');
    expect(names).not.toContain('empty.jsonl');
    expect(names).toContain('copy.jsonl');
    expect(all.total).toBe(all.sessions.length);
    const found = await okValue<SessionsListResult>(host.handle('sessions:list', { query: 'low-stock' }));
    expect(found.total).toBe(all.total);
    expect(found.sessions.length).toBeGreaterThan(0);
    for (const r of found.sessions) expect(r.matched).toBeTruthy();
    const byFolder = await okValue<SessionsListResult>(host.handle('sessions:list', { query: 'gone-drift' }));
    expect(byFolder.sessions.every((r) => r.matched?.startsWith('folder') || r.matched === 'project folder' || r.matched === 'title')).toBe(true);
    const none = await okValue<SessionsListResult>(host.handle('sessions:list', { query: 'zzzz-no-such-thing' }));
    expect(none.sessions).toHaveLength(0);
    expect(none.total).toBe(all.total);
    // Cost per row, from the index (at list prices, with subagents).
    expect(all.sessions.some((r) => (r.costUsd ?? 0) > 0)).toBe(true);
  });
});
