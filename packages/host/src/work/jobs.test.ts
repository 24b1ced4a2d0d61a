import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobProgress, Result, SnapshotView } from '@glassbox/contract';
import { buildLargeTranscript } from '../../../../scripts/bench/synthetic';
import type { EngineHost } from '../host';
import { createHost } from '../index';
import { GENERATED, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  host = null;
  seeded?.cleanup();
  seeded = null;
});

/** The corpus's real transcripts, repeated with fresh ids into one big session in the seeded project folder. */
async function bigSession(s: Seeded, megabytes: number): Promise<string> {
  const sources = readdirSync(GENERATED)
    .filter((n) => /^\d\d-/.test(n))
    .sort()
    .map((n) => join(GENERATED, n, 'transcript.jsonl'));
  const path = join(dirname(s.sessions['01-superseded-reads'] as string), `${randomUUID()}.jsonl`);
  await buildLargeTranscript(sources, path, megabytes * 1024 * 1024);
  return path;
}

function openJobs(h: EngineHost): { events: JobProgress[]; running: Promise<JobProgress> } {
  const events: JobProgress[] = [];
  const running = new Promise<JobProgress>((resolve) =>
    h.onEvent((event, payload) => {
      if (event !== 'job:progress') return;
      const p = payload as JobProgress;
      events.push(p);
      if (p.kind === 'open' && p.state === 'running') resolve(p);
    }),
  );
  return { events, running };
}

describe('heavy work off the request path', () => {
  it('a big session opens in a work thread: host:info is answered while it is read, and Cancel stops it', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    const big = await bigSession(seeded, 40);
    host = createHost({ CLAUDE_CONFIG_DIR: seeded.configDir, GLASSBOX_DATA_DIR: seeded.dataDir }, { watch: false, samplesDir: null, jobShowAfterMs: 0 }, () => {}, { workers: 0 });
    const { events, running } = openJobs(host);
    let settled = false;
    const snapshot = host.handle('session:snapshot', { path: big }).finally(() => (settled = true));
    const job = await running;
    expect(job.path).toBe(big);
    const info = await host.handle('host:info', {});
    expect(info.ok).toBe(true);
    // Answered while the session was still being read: the reading is not on this thread.
    expect(settled).toBe(false);
    expect(await host.handle('job:cancel', { id: job.id })).toEqual({ ok: true, value: { cancelled: true } });
    const r = (await snapshot) as Result<SnapshotView>;
    expect(r.ok ? null : r.error.code).toBe('cancelled');
    expect(events.filter((e) => e.id === job.id).at(-1)?.state).toBe('cancelled');
    expect(await host.handle('job:cancel', { id: job.id })).toEqual({ ok: true, value: { cancelled: false } });
    // The threads carry on: another session opens, with a progress job that ends done.
    const small = await host.handle('session:snapshot', { path: seeded.sessions['01-superseded-reads'] as string });
    expect(small.ok).toBe(true);
  });

  it('two opens of one session at once share one read and one job', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    const big = await bigSession(seeded, 12);
    host = createHost({ CLAUDE_CONFIG_DIR: seeded.configDir, GLASSBOX_DATA_DIR: seeded.dataDir }, { watch: false, samplesDir: null, jobShowAfterMs: 0 }, () => {}, { workers: 0 });
    const { events } = openJobs(host);
    // The window's open, then the reload it asks for when the row changes while the open reads.
    const [a, b] = (await Promise.all([host.handle('session:snapshot', { path: big }), host.handle('session:snapshot', { path: big })])) as Result<SnapshotView>[];
    expect(a?.ok && b?.ok).toBe(true);
    expect(b).toEqual(a);
    expect(new Set(events.filter((e) => e.kind === 'open').map((e) => e.id)).size).toBe(1);
    // Other options are another view of it: their own run.
    const inferred = await host.handle('session:snapshot', { path: big, withInferred: true });
    expect(inferred.ok).toBe(true);
    expect(new Set(events.filter((e) => e.kind === 'open').map((e) => e.id)).size).toBe(2);
  });

  it('reports progress in bytes of the file, up to its size', async () => {
    seeded = seedConfigDir(['01-superseded-reads']);
    const big = await bigSession(seeded, 12);
    host = createHost({ CLAUDE_CONFIG_DIR: seeded.configDir, GLASSBOX_DATA_DIR: seeded.dataDir }, { watch: false, samplesDir: null, jobShowAfterMs: 0 }, () => {}, { workers: 0 });
    const { events } = openJobs(host);
    const r = (await host.handle('session:snapshot', { path: big })) as Result<SnapshotView>;
    expect(r.ok).toBe(true);
    const mine = events.filter((e) => e.kind === 'open');
    expect(mine.at(-1)?.state).toBe('done');
    const reading = mine.filter((e) => e.stage === 'reading the session');
    expect(reading.length).toBeGreaterThan(0);
    const size = r.ok ? r.value.bytes : 0;
    for (const e of reading) {
      expect(e.total).toBe(size);
      expect(e.done).toBeLessThanOrEqual(size);
    }
  });
});
