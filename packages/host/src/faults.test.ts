// A fault the app's host must survive: its index refresh failing (another process holds the
// database past the wait, as a CLI `glassbox index --rebuild` can) must not take the server down
// with an unhandled rejection; the host says so and keeps answering.
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { holdWriteLock } from '@glassbox/test-support/store/index-db';
import { afterEach, expect, it } from 'vitest';
import type { IndexProgress } from '@glassbox/contract';
import { createHost } from './index';
import type { EngineHost } from './host';
import { seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  seeded?.cleanup();
  host = null;
  seeded = null;
});

it('a refresh that fails on a locked index is reported, and the host keeps answering', async () => {
  seeded = seedConfigDir(['01-superseded-reads']);
  const env = seeded.env;
  const wait = process.env['GLASSBOX_LOCK_WAIT_MS'];
  process.env['GLASSBOX_LOCK_WAIT_MS'] = '200';
  try {
    host = createHost(env, { watch: false, samplesDir: null });
    await host.start();
    const release = holdWriteLock(join(seeded.dataDir, 'index.db'));
    const failed = new Promise<IndexProgress>((resolve) => {
      host?.onEvent((event, payload) => {
        const p = payload as IndexProgress;
        if (event === 'index:progress' && p.current?.includes('could not be refreshed')) resolve(p);
      });
    });
    // A new session, so the refresh has something to write.
    const other = seedConfigDir(['05-autocompact']);
    try {
      for (const p of readdirSync(other.projectsDir)) cpSync(join(other.projectsDir, p), join(seeded.projectsDir, p), { recursive: true });
    } finally {
      other.cleanup();
    }
    expect((await host.handle('sessions:refresh', {})).ok).toBe(true);
    const progress = await failed;
    release();
    expect(progress.current).toMatch(/stayed locked by another process/);
    const info = await host.handle('host:info', {});
    expect(info.ok).toBe(true);
  } finally {
    if (wait === undefined) delete process.env['GLASSBOX_LOCK_WAIT_MS'];
    else process.env['GLASSBOX_LOCK_WAIT_MS'] = wait;
  }
});
