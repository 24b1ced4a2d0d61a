// The window's view of what `glassbox proxy` did: a recorded Claude Code run replayed through the
// proxy into the seeded data folder, then read by the host's `proxy:conversations` channel.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyView } from '@glassbox/contract';
import { recordedRun } from '@glassbox/test-support/request-anthropic/recorded';
import { replayAll, startReplay } from '@glassbox/test-support/proxy/replay';
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

describe('proxy:conversations', () => {
  it('lists the proxied conversation with what was removed at which request', async () => {
    seeded = seedConfigDir([]);
    host = createHost(seeded.env, { watch: false, samplesDir: null }, () => {}, { workers: 0 });
    expect(await okValue<ProxyView>(host.handle('proxy:conversations', {}))).toEqual({ conversations: [] });
    const run = recordedRun('31-proxy-live-2.1.332');
    const replay = await startReplay(run, {}, { archiveRoot: join(seeded.dataDir, 'archive') });
    try {
      await replayAll(replay, run);
    } finally {
      await replay.close();
    }
    const view = await okValue<ProxyView>(host.handle('proxy:conversations', {}));
    expect(view.conversations).toHaveLength(1);
    const c = view.conversations[0];
    expect(c?.sessionId).toBe(run.exchanges[0]?.session);
    expect(c?.cwd).toBe(run.cwd);
    expect(c?.requests).toBe(run.exchanges.length);
    expect(c?.removals.map((r) => r.class).sort()).toEqual(['duplicate', 'gone', 'stale-drift', 'stale-superseded', 'stale-superseded']);
    for (const r of c?.removals ?? []) {
      expect(r.request).toBeGreaterThan(1);
      expect(r.sha256Prefix).toMatch(/^[0-9a-f]{12}$/);
      expect(r.moment).toBe('cache-expired');
    }
    expect(await host.handle('proxy:conversations', { extra: 1 } as never)).toMatchObject({ ok: false });
  });
});
