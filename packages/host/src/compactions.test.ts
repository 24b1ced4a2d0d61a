import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompactionFindResult, CompactionItemText, CompactionsView, FileOpened } from '@glassbox/contract';
import type { EngineHost } from './host';
import { seededHost } from '@glassbox/test-support/host/seeded-host';
import { okValue, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  host = null;
  seeded?.cleanup();
  seeded = null;
});

function start(scenarios: string[], repo = true): EngineHost {
  seeded = seedConfigDir(scenarios);
  const s = seeded;
  return seededHost(s, { repoMap: repo ? s.repoMap : {} });
}

describe('the compaction channels', () => {
  it('session:compactions x-rays every compaction of a seeded session, with its mapped folder', async () => {
    host = start(['18-compaction-kept-dropped', '17-subagent-compact']);
    await host.start();
    const path = seeded?.sessions['18-compaction-kept-dropped'] ?? '';
    const view = await okValue<CompactionsView>(host.handle('session:compactions', { path }));
    const [main] = view.histories;
    expect(main?.compactions.map((c) => [c.xray.index, c.xray.trigger, c.xray.line])).toEqual([[1, 'manual', 30], [2, 'auto', 56]]);
    // Mapped to project-after: the superseded read is proven dead, and dropped.
    const read = main?.compactions[0]?.xray.dropped.find((d) => d.line === 11);
    expect(read).toMatchObject({ dead: true, class: 'stale-superseded', carried: 'partial' });
    expect(main?.compactions[0]?.summary?.text).toContain('report.py: renders the plain-text report.');
    const sub = await okValue<CompactionsView>(host.handle('session:compactions', { path: seeded?.sessions['17-subagent-compact'] }));
    expect(sub.histories.map((h) => [h.agentId, h.compactions.length])).toEqual([[null, 0], ['a001b80d91f19a22d', 1]]);
  });

  it('compaction:item gives a dropped item\'s exact text, as the model read it', async () => {
    host = start(['18-compaction-kept-dropped']);
    await host.start();
    const path = seeded?.sessions['18-compaction-kept-dropped'] ?? '';
    const view = await okValue<CompactionsView>(host.handle('session:compactions', { path }));
    const error = view.histories[0]?.compactions[0]?.xray.dropped.find((d) => d.isError);
    const item = await okValue<CompactionItemText>(host.handle('compaction:item', { path, agentId: null, index: 1, segmentId: error?.segmentId }));
    const record = JSON.parse(readFileSync(path, 'utf8').split('\n')[(error?.line ?? 0) - 1] ?? '{}');
    expect(item.text).toBe(record.message.content[0].content);
    expect(item).toMatchObject({ line: 14, truncated: false, bytes: Buffer.byteLength(item.text) });
    const missing = await host.handle('compaction:item', { path, agentId: null, index: 1, segmentId: 'no-such:0' });
    expect(missing.ok).toBe(false);
    const bad = await host.handle('compaction:item', { path, agentId: null, index: 0, segmentId: 'x' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_args' } });
  });

  it('compaction:find: where did ECONNRESET go?', async () => {
    host = start(['18-compaction-kept-dropped']);
    await host.start();
    const path = seeded?.sessions['18-compaction-kept-dropped'] ?? '';
    const found = await okValue<CompactionFindResult>(host.handle('compaction:find', { path, query: 'econnreset' }));
    // Both summaries lost it; before the first compaction it was in the failed call, its output and the last reply.
    expect(found.summaries).toEqual([{ agentId: null, index: 1, found: false }, { agentId: null, index: 2, found: false }]);
    expect(found.hits.filter((h) => h.index === 1).map((h) => [h.line, h.kind])).toEqual([[13, 'tool-input'], [14, 'tool-result'], [25, 'assistant-text']]);
    expect(found.hits.find((h) => h.line === 14)?.snippet).toContain('sync failed: ECONNRESET while posting batch 7');
    const timeout = await okValue<CompactionFindResult>(host.handle('compaction:find', { path, query: 'ETIMEDOUT after 30s' }));
    expect(timeout.summaries.find((s) => s.index === 2)?.found).toBe(true);
    const empty = await host.handle('compaction:find', { path, query: '   ' });
    expect(empty.ok).toBe(false);
  });

  it('works on a dropped file held in memory, and refuses paths outside the grant list', async () => {
    host = start(['16-compact-instructions'], false);
    await host.start();
    const path = seeded?.sessions['16-compact-instructions'] ?? '';
    const opened = await okValue<FileOpened>(host.handle('file:open', { name: 'dropped.jsonl', text: readFileSync(path, 'utf8') }));
    const view = await okValue<CompactionsView>(host.handle('session:compactions', { path: opened.path }));
    expect(view.histories[0]?.compactions[0]?.instructions).toBe('keep the decision about the threshold');
    const outside = await host.handle('session:compactions', { path: '/etc/passwd.jsonl' });
    expect(outside.ok).toBe(false);
  });
});
