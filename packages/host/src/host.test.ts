import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateFork } from '@glassbox/adapter-claude-code';
import type { ForkPreview, ForkWritten, SegmentDetail, SessionsListResult, SnapshotView } from '@glassbox/contract';
import { defaultEngine } from './engine-default';
import { EngineHost } from './host';
import { ScanCatalog } from './scan-catalog';
import { createHost } from './index';
import { GENERATED, REPO_ROOT, seedConfigDir, type Seeded } from './test-seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  host = null;
  seeded?.cleanup();
  seeded = null;
});

function scanHost(s: Seeded, repoMap: Record<string, string> = {}, watch = false): EngineHost {
  return new EngineHost({
    mode: 'browser',
    roots: [s.projectsDir],
    dataDir: s.dataDir,
    samplesDir: null,
    repoMap,
    engine: defaultEngine(),
    watch,
    catalog: ({ engine, repoRootFor }) => new ScanCatalog([s.projectsDir], engine, repoRootFor),
  });
}

async function value<T>(p: Promise<{ ok: boolean; value?: unknown; error?: unknown }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('engine host', () => {
  it('lists every seeded session with figures from the real analysis (index-backed)', async () => {
    seeded = seedConfigDir(['01-superseded-reads', '02-gone-drift-errors', '05-autocompact']);
    host = createHost({ CLAUDE_CONFIG_DIR: seeded.configDir, GLASSBOX_DATA_DIR: seeded.dataDir }, { watch: false, samplesDir: null });
    await host.start();
    const list = await value<SessionsListResult>(host.handle('sessions:list', { sort: 'context' }));
    expect(list.sessions.map((s) => s.path).sort()).toEqual(Object.values(seeded.sessions).sort());
    const first = list.sessions[0];
    expect(first?.contextTokens).toBeGreaterThan(0);
    // Sorted by context tokens, largest first.
    const ctx = list.sessions.map((s) => s.contextTokens ?? 0);
    expect([...ctx].sort((a, b) => b - a)).toEqual(ctx);
    const found = await value<SessionsListResult>(host.handle('sessions:list', { query: 'low-stock' }));
    // Titles match, and the index's full-text search over prompts and paths too (02 mentions low-stock).
    expect(found.sessions.map((s) => s.path)).toContain(seeded.sessions['01-superseded-reads']);
    expect(found.sessions.map((s) => s.path)).not.toContain(seeded.sessions['05-autocompact']);
  });

  it('opens a session: gone, drift and superseded segments, each with its proof in words', async () => {
    seeded = seedConfigDir(['02-gone-drift-errors']);
    host = scanHost(seeded, seeded.repoMap);
    await host.start();
    const path = seeded.sessions['02-gone-drift-errors'] as string;
    const view = await value<SnapshotView>(host.handle('session:snapshot', { path }));
    const classes = new Set(view.snapshot.segments.map((s) => s.class));
    for (const k of ['live', 'gone', 'stale-drift', 'stale-superseded']) expect(classes.has(k as never)).toBe(true);
    expect(view.repoNote).toContain('project-after');

    const gone = view.snapshot.segments.find((s) => s.class === 'gone');
    const goneDetail = await value<SegmentDetail>(host.handle('segment:detail', { path, segmentId: gone?.id }));
    expect(goneDetail.explanation).toMatch(/no longer exists/);
    expect(goneDetail.explanation).toContain('docs/NOTES.md');
    expect(goneDetail.content.length).toBeGreaterThan(0);

    const drift = view.snapshot.segments.find((s) => s.class === 'stale-drift');
    expect(drift?.proof?.class === 'stale-drift' && drift.proof.diff.length).toBeGreaterThan(0);
    const driftDetail = await value<SegmentDetail>(host.handle('segment:detail', { path, segmentId: drift?.id }));
    expect(driftDetail.explanation).toMatch(/changed since it was read/);

    const sup = view.snapshot.segments.find((s) => s.class === 'stale-superseded');
    const supDetail = await value<SegmentDetail>(host.handle('segment:detail', { path, segmentId: sup?.id }));
    expect(supDetail.provedBy).not.toBeNull();
    expect(view.snapshot.segments.some((s) => s.id === supDetail.provedBy?.segmentId)).toBe(true);
  });

  it('without the repo mapping, nothing is proven gone or drifted (the cwd is not on this machine)', async () => {
    seeded = seedConfigDir(['02-gone-drift-errors']);
    host = scanHost(seeded);
    const path = seeded.sessions['02-gone-drift-errors'] as string;
    const view = await value<SnapshotView>(host.handle('session:snapshot', { path }));
    const classes = new Set(view.snapshot.segments.map((s) => s.class));
    expect(classes.has('gone')).toBe(false);
    expect(classes.has('stale-drift')).toBe(false);
    const mapped = await host.handle('repo:map', { cwd: view.snapshot.session.cwd, folder: join(GENERATED, '02-gone-drift-errors/project-after') });
    expect(mapped.ok).toBe(true);
    const again = await value<SnapshotView>(host.handle('session:snapshot', { path }));
    expect(again.snapshot.segments.some((s) => s.class === 'gone')).toBe(true);
  });

  it('session:snapshot takes the model of the next request: only that model\'s reasoning is in the window', async () => {
    seeded = seedConfigDir(['11-model-switch']);
    host = scanHost(seeded);
    const path = seeded.sessions['11-model-switch'] as string;
    const byDefault = await value<SnapshotView>(host.handle('session:snapshot', { path }));
    expect(byDefault.snapshot.request?.model).toBe('claude-sonnet-4-6');
    expect(byDefault.snapshot.request?.models.sort()).toEqual(['claude-opus-4-8', 'claude-sonnet-4-6']);
    const thinking = (v: SnapshotView) => v.snapshot.segments.filter((s) => s.kind === 'thinking').map((s) => s.id);
    const onOpus = await value<SnapshotView>(host.handle('session:snapshot', { path, model: 'claude-opus-4-8' }));
    expect(onOpus.snapshot.request?.modelBasis).toBe('named by the caller');
    expect(thinking(onOpus)).toHaveLength(2);
    expect(thinking(onOpus).some((id) => thinking(byDefault).includes(id))).toBe(false);
    const bad = await host.handle('session:snapshot', { path, model: 'not a model' });
    expect(bad.ok).toBe(false);
  });

  it('previews and writes a fork that validates, leaves the original untouched and joins the list', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    host = scanHost(seeded);
    await host.start();
    const path = seeded.sessions['01-superseded-reads'] as string;
    const before = sha(path);
    const classes = ['gone', 'stale-drift', 'stale-superseded', 'duplicate'];
    const preview = await value<ForkPreview>(host.handle('fork:preview', { path, classes }));
    expect(preview.canWrite).toBe(true);
    expect(preview.netReclaimed).toBeGreaterThan(0);
    expect(preview.tokensAfter).toBe(preview.tokensBefore - preview.netReclaimed);
    expect(preview.checks.every((c) => c.ok)).toBe(true);
    expect(preview.largest[0]?.class).toBe('stale-superseded');

    const written = await value<ForkWritten>(host.handle('fork:write', { path, classes }));
    expect(existsSync(written.path)).toBe(true);
    expect(written.resumeCommand).toMatch(new RegExp(`claude --resume ${written.sessionId}$`));
    expect(sha(path)).toBe(before);
    const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter((l) => l !== '');
    expect(validateFork(lines(path), lines(written.path)).ok).toBe(true);
    const list = await value<SessionsListResult>(host.handle('sessions:list', {}));
    const row = list.sessions.find((s) => s.path === written.path);
    expect(row?.fork).toBe(true);
    expect(row?.id).toBe(written.sessionId);
  });

  it('protecting the whole conversation leaves nothing to remove', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    host = scanHost(seeded);
    const path = seeded.sessions['01-superseded-reads'] as string;
    const classes = ['gone', 'stale-drift', 'stale-superseded', 'duplicate'];
    const all = await value<ForkPreview>(host.handle('fork:preview', { path, classes, protectTail: 1000 }));
    expect(all.actions).toBe(0);
    expect(all.canWrite).toBe(false);
    const none = await value<ForkPreview>(host.handle('fork:preview', { path, classes, protectTail: 0 }));
    const dflt = await value<ForkPreview>(host.handle('fork:preview', { path, classes }));
    expect(none.actions).toBeGreaterThanOrEqual(dflt.actions);
    expect(dflt.actions).toBeGreaterThan(0);
  });

  it('refuses to fork when nothing is provably dead, and writes nothing', async () => {
    seeded = seedConfigDir(['05-autocompact']);
    host = scanHost(seeded);
    const path = seeded.sessions['05-autocompact'] as string;
    const preview = await value<ForkPreview>(host.handle('fork:preview', { path, classes: ['gone'] }));
    expect(preview.canWrite).toBe(false);
    const r = await host.handle('fork:write', { path, classes: ['gone'] });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(/Nothing was written/);
  });

  it('opens dropped files: a transcript by its bytes, anything else with a clear message', async () => {
    seeded = seedConfigDir([]);
    host = scanHost(seeded);
    const text = readFileSync(join(GENERATED, '01-superseded-reads/transcript.jsonl'), 'utf8');
    const opened = await value<{ path: string; sessionId: string }>(host.handle('file:open', { name: 'dropped.jsonl', text }));
    expect(opened.path.startsWith('upload:')).toBe(true);
    const view = await value<SnapshotView>(host.handle('session:snapshot', { path: opened.path }));
    expect(view.external).toBe(true);
    const seg = view.snapshot.segments.find((s) => s.kind === 'tool-result');
    const detail = await value<SegmentDetail>(host.handle('segment:detail', { path: opened.path, segmentId: seg?.id }));
    expect(detail.content.length).toBeGreaterThan(0);
    const fork = await host.handle('fork:preview', { path: opened.path, classes: ['duplicate'] });
    expect(fork.ok).toBe(false);

    const png = await host.handle('file:open', { name: 'screenshot.png', text: 'x' });
    expect(png.ok === false && png.error.code).toBe('not_jsonl');
    const codex = readFileSync(join(REPO_ROOT, 'fixtures/corpus/public/MoonLadderStudios__MoonMind', firstJsonl('fixtures/corpus/public/MoonLadderStudios__MoonMind')), 'utf8');
    const notOurs = await host.handle('file:open', { name: 'rollout.jsonl', text: codex });
    expect(notOurs.ok === false && notOurs.error.code).toBe('not_a_transcript');
    const empty = await host.handle('file:open', { name: 'empty.jsonl', text: '' });
    expect(empty.ok === false && empty.error.message).toMatch(/empty/);
    const missing = await host.handle('file:open', { path: join(seeded.dir, 'nope.jsonl') });
    expect(missing.ok === false && missing.error.code).toBe('not_found');
  });

  it('validates arguments and channel names before any handler runs', async () => {
    seeded = seedConfigDir([]);
    host = scanHost(seeded);
    expect((await host.handle('shell:exec', {})).ok).toBe(false);
    const bad = await host.handle('fork:write', { path: '/x.jsonl', classes: ['live'] });
    expect(bad.ok === false && bad.error.code).toBe('bad_args');
    const extra = await host.handle('session:snapshot', { path: '/x.jsonl', evil: true });
    expect(extra.ok === false && extra.error.message).toMatch(/unexpected argument/);
    const noPath = await host.handle('segment:detail', { segmentId: 'a' });
    expect(noPath.ok).toBe(false);
  });

  it('reports an append to a watched session as a changed row', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    host = scanHost(seeded, {}, true);
    await host.start();
    const path = seeded.sessions['01-superseded-reads'] as string;
    const changed = new Promise<{ path: string; bytes: number | undefined; reason: string }>((resolve) => {
      host?.onEvent((event, payload) => {
        if (event === 'session:changed') {
          const p = payload as { path: string; row: { bytes: number } | null; reason: string };
          resolve({ path: p.path, bytes: p.row?.bytes, reason: p.reason });
        }
      });
    });
    await new Promise((r) => setTimeout(r, 300));
    const lastLine = readFileSync(path, 'utf8').trimEnd().split('\n').pop() as string;
    appendFileSync(path, lastLine + '\n');
    const got = await changed;
    expect(got.path).toBe(path);
    expect(got.reason).toBe('appended');
    expect(got.bytes).toBe(readFileSync(path).length);
  });
});

function firstJsonl(dir: string): string {
  return readdirSync(join(REPO_ROOT, dir)).find((n) => n.endsWith('.jsonl')) as string;
}
