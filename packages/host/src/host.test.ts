import type { IndexCatalog } from './index-catalog';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateFork } from '@glassbox/adapter-claude-code';
import type { ForkPreview, ForkRemoved, ForkWritten, SegmentDetail, SessionsListResult, SnapshotView } from '@glassbox/contract';
import type { EngineHost } from './host';
import { seededHost } from '@glassbox/test-support/host/seeded-host';
import { createHost } from './index';
import { GENERATED, REPO_ROOT, okValue, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
/** The catalog the last scanHost made: a test awaits its watcher before it changes a file. */
let catalog: IndexCatalog | null = null;
afterEach(() => {
  host?.close();
  host = null;
  catalog = null;
  seeded?.cleanup();
  seeded = null;
});

function scanHost(s: Seeded, repoMap: Record<string, string> = {}, watch = false): EngineHost {
  return seededHost(s, { repoMap, watch, onCatalog: (c) => (catalog = c) });
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('engine host', () => {
  it('lists every seeded session with figures from the real analysis (index-backed)', async () => {
    seeded = seedConfigDir(['01-superseded-reads', '02-gone-drift-errors', '05-autocompact']);
    host = createHost(seeded.env, { watch: false, samplesDir: null });
    await host.start();
    const list = await okValue<SessionsListResult>(host.handle('sessions:list', { sort: 'context' }));
    expect(list.sessions.map((s) => s.path).sort()).toEqual(Object.values(seeded.sessions).sort());
    const first = list.sessions[0];
    expect(first?.contextTokens).toBeGreaterThan(0);
    // Sorted by context tokens, largest first.
    const ctx = list.sessions.map((s) => s.contextTokens ?? 0);
    expect([...ctx].sort((a, b) => b - a)).toEqual(ctx);
    const found = await okValue<SessionsListResult>(host.handle('sessions:list', { query: 'low-stock' }));
    // Titles match, and the index's full-text search over prompts and paths too (02 mentions low-stock).
    expect(found.sessions.map((s) => s.path)).toContain(seeded.sessions['01-superseded-reads']);
    expect(found.sessions.map((s) => s.path)).not.toContain(seeded.sessions['05-autocompact']);
    // By cost, dearest first; each row names its agent.
    const byCost = await okValue<SessionsListResult>(host.handle('sessions:list', { sort: 'cost' }));
    const costs = byCost.sessions.map((s) => s.costUsd ?? -1);
    expect(costs.every((c) => c > 0)).toBe(true);
    expect([...costs].sort((a, b) => b - a)).toEqual(costs);
    expect(new Set(byCost.sessions.map((s) => s.agent))).toEqual(new Set(['Claude Code']));
  });

  it('opens a session: gone, drift and superseded segments, each with its proof in words', async () => {
    seeded = seedConfigDir(['02-gone-drift-errors']);
    host = scanHost(seeded, seeded.repoMap);
    await host.start();
    const path = seeded.sessions['02-gone-drift-errors'] as string;
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    const classes = new Set(view.snapshot.segments.map((s) => s.class));
    for (const k of ['live', 'gone', 'stale-drift', 'stale-superseded']) expect(classes.has(k as never)).toBe(true);
    expect(view.repoNote).toContain('project-after');

    const gone = view.snapshot.segments.find((s) => s.class === 'gone');
    const goneDetail = await okValue<SegmentDetail>(host.handle('segment:detail', { path, segmentId: gone?.id }));
    expect(goneDetail.explanation).toMatch(/no longer exists/);
    expect(goneDetail.explanation).toContain('docs/NOTES.md');
    expect(goneDetail.content.length).toBeGreaterThan(0);

    const drift = view.snapshot.segments.find((s) => s.class === 'stale-drift');
    expect(drift?.proof?.class === 'stale-drift' && drift.proof.diff.length).toBeGreaterThan(0);
    const driftDetail = await okValue<SegmentDetail>(host.handle('segment:detail', { path, segmentId: drift?.id }));
    expect(driftDetail.explanation).toMatch(/changed since it was read/);

    const sup = view.snapshot.segments.find((s) => s.class === 'stale-superseded');
    const supDetail = await okValue<SegmentDetail>(host.handle('segment:detail', { path, segmentId: sup?.id }));
    expect(supDetail.provedBy).not.toBeNull();
    expect(view.snapshot.segments.some((s) => s.id === supDetail.provedBy?.segmentId)).toBe(true);
  });

  it('without the repo mapping, nothing is proven gone or drifted (the cwd is not on this machine)', async () => {
    seeded = seedConfigDir(['02-gone-drift-errors']);
    host = scanHost(seeded);
    const path = seeded.sessions['02-gone-drift-errors'] as string;
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    const classes = new Set(view.snapshot.segments.map((s) => s.class));
    expect(classes.has('gone')).toBe(false);
    expect(classes.has('stale-drift')).toBe(false);
    const mapped = await host.handle('repo:map', { cwd: view.snapshot.session.cwd, folder: join(GENERATED, '02-gone-drift-errors/project-after') });
    expect(mapped.ok).toBe(true);
    const again = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    expect(again.snapshot.segments.some((s) => s.class === 'gone')).toBe(true);
  });

  it('session:snapshot takes the model of the next request: only that model\'s reasoning is in the window', async () => {
    seeded = seedConfigDir(['11-model-switch']);
    host = scanHost(seeded);
    const path = seeded.sessions['11-model-switch'] as string;
    const byDefault = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    expect(byDefault.snapshot.request?.model).toBe('claude-sonnet-4-6');
    expect(byDefault.snapshot.request?.models.sort()).toEqual(['claude-opus-4-8', 'claude-sonnet-4-6']);
    const thinking = (v: SnapshotView) => v.snapshot.segments.filter((s) => s.kind === 'thinking').map((s) => s.id);
    const onOpus = await okValue<SnapshotView>(host.handle('session:snapshot', { path, model: 'claude-opus-4-8' }));
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
    const preview = await okValue<ForkPreview>(host.handle('fork:preview', { path, classes }));
    expect(preview.canWrite).toBe(true);
    expect(preview.netReclaimed).toBeGreaterThan(0);
    expect(preview.tokensAfter).toBe(preview.tokensBefore - preview.netReclaimed);
    expect(preview.checks.every((c) => c.ok)).toBe(true);
    expect(preview.largest[0]?.class).toBe('stale-superseded');

    const written = await okValue<ForkWritten>(host.handle('fork:write', { path, classes }));
    expect(existsSync(written.path)).toBe(true);
    // No folder is mapped and the recorded cwd is not on this machine (unless a harness run made it): the
    // file is named, to run from wherever the project is now.
    const cwd = '/tmp/cc-harness-work/01-superseded-reads/project';
    expect(written.resumeCommand).toBe(existsSync(cwd) ? `cd ${cwd} && claude --resume ${written.sessionId}` : `claude --resume ${written.path}`);
    expect(written.resumeNote ?? '').toMatch(existsSync(cwd) ? /^$/ : /is not on this machine: run this from the folder that holds the project now$/);
    expect(sha(path)).toBe(before);
    const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter((l) => l !== '');
    expect(validateFork(lines(path), lines(written.path)).ok).toBe(true);
    const list = await okValue<SessionsListResult>(host.handle('sessions:list', {}));
    const row = list.sessions.find((s) => s.path === written.path);
    expect(row?.fork).toBe(true);
    expect(row?.id).toBe(written.sessionId);
  });

  it('a written fork knows it is one: links both ways, tombstones its own class, the window it will send; verify, show and undo from the window', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    host = scanHost(seeded, seeded.repoMap);
    await host.start();
    const path = seeded.sessions['01-superseded-reads'] as string;
    const original = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    const written = await okValue<ForkWritten>(host.handle('fork:write', { path, classes: ['stale-superseded', 'duplicate'] }));
    // With the folder mapped, the command runs there and names the fork's file.
    expect(written.resumeCommand).toBe(`cd ${seeded.repoMap['/tmp/cc-harness-work/01-superseded-reads/project']} && claude --resume ${written.path}`);

    const list = await okValue<SessionsListResult>(host.handle('sessions:list', {}));
    const forkRow = list.sessions.find((r) => r.path === written.path);
    const origRow = list.sessions.find((r) => r.path === path);
    expect(forkRow?.forkOf).toMatchObject({ sessionId: original.snapshot.session.id, path, title: origRow?.title, kind: 'clean' });
    expect(origRow?.forks.map((f) => f.sessionId)).toEqual([written.sessionId]);
    expect(origRow?.forkOf).toBeNull();

    const fork = await okValue<SnapshotView>(host.handle('session:snapshot', { path: written.path }));
    expect(fork.lineage.forkOf?.sessionId).toBe(original.snapshot.session.id);
    const tombstones = fork.snapshot.segments.filter((s) => s.class === 'tombstone');
    expect(tombstones.length).toBe(original.snapshot.segments.filter((s) => s.class === 'stale-superseded' || s.class === 'duplicate').filter((s) => !s.protected && s.evictableTokens > 40).length);
    // Only what is still dead counts: the fork's reclaimable figure is what the original had and the fork left.
    expect(fork.snapshot.reclaimable.byClass['stale-superseded'].segments + fork.snapshot.reclaimable.byClass.duplicate.segments).toBe(0);
    expect(fork.figures.reclaimableTokens).toBeLessThan(original.figures.reclaimableTokens);
    // Not resumed yet: the reported figure is the original's, and the window it will send is estimated below it.
    expect(fork.lineage.willSend?.originalReportedTokens).toBe(original.snapshot.context.reportedTokens);
    expect(fork.lineage.willSend?.estimatedTokens).toBe((original.snapshot.context.reportedTokens ?? 0) - written.netReclaimed);
    expect(original.lineage.willSend).toBeNull();

    const verified = await okValue<{ ok: boolean; checks: { ok: boolean }[] }>(host.handle('fork:verify', { path: written.path }));
    expect(verified.ok).toBe(true);
    expect(verified.checks.every((c) => c.ok)).toBe(true);

    const t = tombstones[0];
    const payload = await okValue<{ text: string; sha256: string; tombstone: string }>(host.handle('fork:payload', { path: written.path, segmentId: t?.id }));
    expect(t?.proof?.class === 'tombstone' && t.proof.sha256Prefix).toBe(payload.sha256.slice(0, 12));
    expect(payload.text.length).toBeGreaterThan(100);
    const missing = await host.handle('fork:payload', { path: written.path, segmentId: 'no-such-segment' });
    expect(missing.ok === false && missing.error.code).toBe('not_found');
    const notFork = await host.handle('fork:verify', { path });
    expect(notFork.ok === false && notFork.error.message).toMatch(/^no fork .* in the archive/);

    const undone = await okValue<ForkWritten>(host.handle('fork:write-original', { path: written.path }));
    expect(readFileSync(undone.path, 'utf8')).toBe(readFileSync(path, 'utf8').split(`"sessionId":"${original.snapshot.session.id}"`).join(`"sessionId":"${undone.sessionId}"`));
    const after = await okValue<SessionsListResult>(host.handle('sessions:list', {}));
    expect(after.sessions.find((r) => r.path === undone.path)?.forkOf).toMatchObject({ sessionId: written.sessionId, kind: 'undo' });
  });

  it('Undo takes the fork off the disk: moved with its side files into the archive, gone from the list, its original no longer lists it', async () => {
    seeded = seedConfigDir(['03-large-outputs']);
    host = scanHost(seeded, seeded.repoMap);
    await host.start();
    const path = seeded.sessions['03-large-outputs'] as string;
    const folder = dirname(path);
    const before = readdirSync(folder, { recursive: true }).map(String).sort();
    const written = await okValue<ForkWritten>(host.handle('fork:write', { path, classes: ['stale-superseded', 'duplicate', 'gone', 'stale-drift'] }));
    expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(before.length);
    const removed = await okValue<ForkRemoved>(host.handle('fork:remove', { path: written.path }));
    expect(removed.files).toBeGreaterThan(1);
    expect(removed.restoreCommand).toBe(`glassbox restore ${written.sessionId}`);
    expect(readdirSync(folder, { recursive: true }).map(String).sort()).toEqual(before);
    const list = await okValue<SessionsListResult>(host.handle('sessions:list', {}));
    expect(list.sessions.map((r) => r.path)).toEqual([path]);
    expect(list.sessions[0]?.forks ?? []).toEqual([]);
    // The original is not a fork: refused, named, nothing moved.
    const notFork = await host.handle('fork:remove', { path });
    expect(notFork.ok === false && notFork.error.message).toMatch(/^no fork .* in the archive/);
    expect(existsSync(path)).toBe(true);
  });

  it('a refused mapping saves nothing; a good one is kept across a restart and applied to the list', async () => {
    seeded = seedConfigDir(['03-large-outputs']);
    const env = seeded.env;
    host = createHost(env, { watch: false, samplesDir: null });
    await host.start();
    const path = seeded.sessions['03-large-outputs'] as string;
    const cwd = '/tmp/cc-harness-work/03-large-outputs/project';
    const refused = await host.handle('repo:map', { cwd, folder: join(seeded.dir, 'no-such-folder') });
    expect(refused.ok === false && refused.error.message).toBe(`Not mapped: ${join(seeded.dir, 'no-such-folder')} is not usable as the project's folder.`);
    const file = await host.handle('repo:map', { cwd, folder: path });
    // The same answer for a file: a refusal never says what is there.
    expect(file.ok === false && file.error.message).toBe(`Not mapped: ${path} is not usable as the project's folder.`);
    const info = await okValue<{ repoMap: Record<string, string> }>(host.handle('host:info', {}));
    expect(info.repoMap[cwd]).toBeUndefined();

    const before = (await okValue<SessionsListResult>(host.handle('sessions:list', {}))).sessions[0];
    expect(before?.reclaimableTokens).toBe(0);
    const mapped = await host.handle('repo:map', { cwd, folder: seeded.repoMap[cwd] as string });
    expect(mapped.ok).toBe(true);
    host.close();
    host = createHost(env, { watch: false, samplesDir: null });
    await host.start();
    const row = (await okValue<SessionsListResult>(host.handle('sessions:list', {}))).sessions[0];
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path }));
    expect(view.repoNote).toBe(`${cwd} → ${seeded.repoMap[cwd]}`);
    expect(row?.reclaimableTokens).toBeGreaterThan(30_000);
    expect(row?.reclaimableTokens).toBe(view.figures.reclaimableTokens);
    expect(row?.reclaimableShare).toBe(view.figures.deadShare);
  });

  it('protecting the whole conversation leaves nothing to remove', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    host = scanHost(seeded);
    const path = seeded.sessions['01-superseded-reads'] as string;
    const classes = ['gone', 'stale-drift', 'stale-superseded', 'duplicate'];
    const all = await okValue<ForkPreview>(host.handle('fork:preview', { path, classes, protectTail: 1000 }));
    expect(all.actions).toBe(0);
    expect(all.canWrite).toBe(false);
    const none = await okValue<ForkPreview>(host.handle('fork:preview', { path, classes, protectTail: 0 }));
    const dflt = await okValue<ForkPreview>(host.handle('fork:preview', { path, classes }));
    expect(none.actions).toBeGreaterThanOrEqual(dflt.actions);
    expect(dflt.actions).toBeGreaterThan(0);
  });

  it('refuses to fork when nothing is provably dead, and writes nothing', async () => {
    seeded = seedConfigDir(['05-autocompact']);
    host = scanHost(seeded);
    const path = seeded.sessions['05-autocompact'] as string;
    const preview = await okValue<ForkPreview>(host.handle('fork:preview', { path, classes: ['gone'] }));
    expect(preview.canWrite).toBe(false);
    const before = readdirSync(join(path, '..')).sort();
    const r = await host.handle('fork:write', { path, classes: ['gone'] });
    expect(r.ok).toBe(false);
    // Said as it is: nothing to remove — not "the file changed while the fork was prepared" after re-planning.
    expect(!r.ok && r.error.code).toBe('nothing_to_remove');
    expect(!r.ok && r.error.message).toMatch(/^Nothing to remove: /);
    expect(!r.ok && r.error.message).not.toMatch(/changed|still running/);
    expect(readdirSync(join(path, '..')).sort()).toEqual(before);
  });

  it('opens dropped files: a transcript by its bytes, anything else with a clear message', async () => {
    seeded = seedConfigDir([]);
    host = scanHost(seeded);
    const text = readFileSync(join(GENERATED, '01-superseded-reads/transcript.jsonl'), 'utf8');
    const opened = await okValue<{ path: string; sessionId: string }>(host.handle('file:open', { name: 'dropped.jsonl', text }));
    expect(opened.path.startsWith('upload:')).toBe(true);
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path: opened.path }));
    expect(view.external).toBe(true);
    const seg = view.snapshot.segments.find((s) => s.kind === 'tool-result');
    const detail = await okValue<SegmentDetail>(host.handle('segment:detail', { path: opened.path, segmentId: seg?.id }));
    expect(detail.content.length).toBeGreaterThan(0);
    const fork = await host.handle('fork:preview', { path: opened.path, classes: ['duplicate'] });
    expect(fork.ok).toBe(false);

    const png = await host.handle('file:open', { name: 'screenshot.png', text: 'x' });
    expect(png.ok === false && png.error.code).toBe('not_jsonl');
    const notOurs = await host.handle('file:open', { name: 'notes.jsonl', text: '{"note":"not a transcript"}\n' });
    expect(notOurs.ok === false && notOurs.error.code).toBe('not_a_transcript');
    // A Codex rollout is another agent's transcript, and opens.
    const codex = readFileSync(join(REPO_ROOT, 'fixtures/corpus/public/MoonLadderStudios__MoonMind', firstJsonl('fixtures/corpus/public/MoonLadderStudios__MoonMind')), 'utf8');
    expect((await host.handle('file:open', { name: 'rollout.jsonl', text: codex })).ok).toBe(true);
    const empty = await host.handle('file:open', { name: 'empty.jsonl', text: '' });
    expect(empty.ok === false && empty.error.message).toMatch(/empty/);
    const missing = await host.handle('file:open', { path: join(seeded.projectsDir, 'nope.jsonl') });
    expect(missing.ok === false && missing.error.code).toBe('not_found');
    // Outside the projects folders the answer does not say whether the file exists (attacks.test.ts).
    const outside = await host.handle('file:open', { path: join(seeded.dir, 'nope.jsonl') });
    expect(outside.ok === false && outside.error.code).toBe('refused');
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
    await (catalog as IndexCatalog).watching();
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

describe('the window layout', () => {
  it('keeps the session list width across a restart, and refuses one out of range', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    host = createHost(seeded.env, { watch: false, samplesDir: null });
    await host.start();
    expect(await okValue(host.handle('window:layout', {}))).toEqual({ sidebarWidth: null });
    expect(await okValue(host.handle('window:layout', { sidebarWidth: 377.4 }))).toEqual({ sidebarWidth: 377 });
    const refused = await host.handle('window:layout', { sidebarWidth: 5 });
    expect(refused.ok).toBe(false);
    host.close();
    host = createHost(seeded.env, { watch: false, samplesDir: null });
    await host.start();
    expect(await okValue(host.handle('window:layout', {}))).toEqual({ sidebarWidth: 377 });
  });
});
