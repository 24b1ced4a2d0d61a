// The retention channels on a seeded configuration folder of real sessions: the client's deletion
// date on each row, keep, a kept session listed and opened from the archive once the client's files
// are gone, restore, the rules in force, and "keep every session automatically".
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventMap, KeepResultView, RestoredView, RetentionInfo, SessionChanged, SessionsListResult, SnapshotView } from '@glassbox/contract';
import { createHost } from './index';
import type { EngineHost } from './host';
import { okValue, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  host = null;
  seeded?.cleanup();
  seeded = null;
});

const DAY = 86_400_000;

/** Resolves with the first event of this kind that matches. */
function next<E extends keyof EventMap>(h: EngineHost, event: E, match: (p: EventMap[E]) => boolean): Promise<EventMap[E]> {
  return new Promise((resolve) => {
    const off = h.onEvent((e, payload) => {
      if ((e as string) === event && match(payload as EventMap[E])) {
        off();
        resolve(payload as EventMap[E]);
      }
    });
  });
}

function start(s: Seeded): EngineHost {
  const h = createHost(s.env, { watch: false, samplesDir: null }, () => {}, { workers: 0 });
  return h;
}

async function refreshed(h: EngineHost): Promise<void> {
  const done = next(h, 'index:progress', (p) => p.phase === 'done');
  await h.handle('sessions:refresh', {});
  await done;
}

describe('retention channels', () => {
  it('dates rows, keeps a session, lists and opens it from the archive after the client deleted it, and restores it', async () => {
    seeded = seedConfigDir(['04-subagent-compact-multiturn']);
    writeFileSync(join(seeded.configDir, 'settings.json'), '{"cleanupPeriodDays": 5}');
    const path = seeded.sessions['04-subagent-compact-multiturn'] as string;
    const original = readFileSync(path);
    host = start(seeded);
    await host.start();

    const info = await okValue<RetentionInfo>(host.handle('retention:info', {}));
    expect(info.folders).toEqual([
      expect.objectContaining({ folder: seeded.configDir, client: 'Claude Code', days: 5, warning: expect.stringContaining('deleted after only 5 days') }),
    ]);
    expect(info.autoKeep).toBe(false);

    const [row] = (await okValue<SessionsListResult>(host.handle('sessions:list', {}))).sessions;
    expect(row?.retention).toMatchObject({ client: 'Claude Code', decidedBy: `cleanupPeriodDays 5 in ${join(seeded.configDir, 'settings.json')}` });
    expect(Date.parse(row?.retention?.expiresAt ?? '')).toBeGreaterThan(Date.now() + 4 * DAY);
    expect(row?.kept).toBeNull();

    const changed = next(host, 'session:changed', (c) => c.path === path);
    const kept = await okValue<KeepResultView>(host.handle('session:keep', { paths: [path] }));
    expect(kept.outcomes).toEqual([{ path, status: 'kept', message: null, bytes: expect.any(Number), writtenBytes: expect.any(Number) }]);
    expect((await changed).row?.kept).toMatchObject({ current: true, versions: 1, gone: null });

    // What the client's clean-up removes.
    rmSync(path);
    rmSync(path.replace(/\.jsonl$/, ''), { recursive: true });
    await refreshed(host);
    const [copy] = (await okValue<SessionsListResult>(host.handle('sessions:list', {}))).sessions;
    expect(copy?.path).not.toBe(path);
    expect(copy?.kept).toMatchObject({ originalPath: path, gone: { byClient: false } });
    expect(copy?.subagents).toBe(1);
    const view = await okValue<SnapshotView>(host.handle('session:snapshot', { path: copy?.path }));
    expect(view.keeping?.kept?.gone).not.toBeNull();
    expect(view.snapshot.segments.length).toBeGreaterThan(0);

    const fork = await host.handle('fork:write', { path: copy?.path, classes: ['stale-superseded'] });
    expect(fork.ok).toBe(false);

    const removed = next(host, 'session:changed', (c: SessionChanged) => c.path === copy?.path && c.reason === 'removed');
    const added = next(host, 'session:changed', (c: SessionChanged) => c.path === path && c.reason === 'added');
    const restored = await okValue<RestoredView>(host.handle('session:restore', { path: copy?.path }));
    expect(restored).toMatchObject({ sessionId: row?.id, path, files: 3 });
    expect(restored.resumeNote ?? restored.resumeCommand).toBeTruthy();
    expect(readFileSync(path).equals(original)).toBe(true);
    await removed;
    expect((await added).row?.kept).toMatchObject({ gone: null });

    const again = await host.handle('session:restore', { path });
    expect(again.ok).toBe(false);
  });

  it('keeps only what the grant list admits, and validates its arguments', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    host = start(seeded);
    await host.start();
    const outside = join(dirname(seeded.configDir), 'elsewhere.jsonl');
    const r = await okValue<KeepResultView>(host.handle('session:keep', { paths: [outside] }));
    expect(r.outcomes[0]).toMatchObject({ status: 'failed', bytes: 0 });
    expect(existsSync(join(seeded.dataDir, 'archive', 'kept'))).toBe(false);
    for (const bad of [{}, { paths: [] }, { paths: 'x' }, { paths: [''] }, { paths: ['/a'], more: 1 }]) {
      const v = await host.handle('session:keep', bad);
      expect(v.ok ? null : v.error.code).toBe('bad_args');
    }
    expect(((await host.handle('retention:auto-keep', { enabled: 'yes' })) as { ok: boolean }).ok).toBe(false);
  });

  it('keeps every idle session automatically once the setting is on, and remembers the setting', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    const path = seeded.sessions['01-superseded-reads'] as string;
    const idle = new Date(Date.now() - 3600_000);
    utimesSync(path, idle, idle);
    host = start(seeded);
    await host.start();
    const kept = next(host, 'session:changed', (c) => c.path === path && c.row?.kept?.current === true);
    const info = await okValue<RetentionInfo>(host.handle('retention:auto-keep', { enabled: true }));
    expect(info.autoKeep).toBe(true);
    expect((await kept).row?.kept?.versions).toBe(1);
    expect(JSON.parse(readFileSync(join(seeded.dataDir, 'settings.json'), 'utf8'))).toEqual({ autoKeep: true });
    host.close();
    host = start(seeded);
    await host.start();
    expect((await okValue<RetentionInfo>(host.handle('retention:info', {}))).archive).toMatchObject({ sessions: 1, versions: 1 });
    expect((await okValue<RetentionInfo>(host.handle('retention:auto-keep', { enabled: false }))).autoKeep).toBe(false);
  });
});
