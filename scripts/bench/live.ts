// `npm run bench:live`: how long a person watching a live session waits after each append. A host
// (browser mode's, with its file watcher and two work threads) serves a temporary projects folder
// holding one large session of real records (1, 10 and 100 MB); the session is open, as in the
// window; then real records are appended one at a time and each is timed from the write to the
// window's data in hand: the host's `session:changed` for the file, then `session:snapshot` answered
// and parsed, as the window asks it. React's paint is not part of it (the window's frame is
// measured by `npm run bench:ui`). The baseline, in the same run and on the same file: the host
// reading the session whole again after every change (what it did before it followed sessions).
// Printed, never asserted (the goal: 150 ms at any size).
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createHost, type EngineHost } from '@glassbox/host';
import { largeFiles } from './memory';
import { renameIds } from './synthetic';

const ROOT = resolve(import.meta.dirname, '../..');
const SIZES = (process.env['LIVE_SIZES'] ?? '1,10,100').split(',').map(Number);
const APPENDS = 10;

interface Run {
  /** Append → the host's `session:changed` for it. */
  event: number[];
  /** Append → `session:snapshot` answered and parsed. */
  painted: number[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? NaN;
};

/** Resolves with the first event that passes `test`, or null after `ms`. */
function nextEvent(host: EngineHost, test: (event: string, payload: unknown) => boolean, ms: number): Promise<unknown> {
  return new Promise((done) => {
    const timer = setTimeout(() => {
      off();
      done(null);
    }, ms);
    const off = host.onEvent((event, payload) => {
      if (!test(event, payload)) return;
      clearTimeout(timer);
      off();
      done(payload);
    });
  });
}

const appended = (path: string) => (event: string, payload: unknown): boolean => event === 'session:changed' && (payload as { path: string; reason: string }).path === path && (payload as { reason: string }).reason === 'appended';
const analysed = (path: string) => (event: string, payload: unknown): boolean => event === 'session:changed' && (payload as { path: string; reason: string }).path === path && (payload as { reason: string }).reason === 'changed';

async function measure(big: string, records: string[], follow: boolean): Promise<Run> {
  const work = mkdtempSync(join(tmpdir(), 'glassbox-bench-live-'));
  const project = join(work, 'claude', 'projects', '-bench-project');
  mkdirSync(project, { recursive: true });
  const path = join(project, `${randomUUID()}.jsonl`);
  copyFileSync(big, path);
  const env = { ...process.env, CLAUDE_CONFIG_DIR: join(work, 'claude'), CODEX_HOME: join(work, 'codex'), GEMINI_CLI_HOME: join(work, 'gemini'), GLASSBOX_DATA_DIR: join(work, 'data') };
  const host = createHost(env, { watch: true, samplesDir: null, work: { threads: 2, follow } }, () => {});
  const run: Run = { event: [], painted: [] };
  try {
    await host.start();
    const open = await host.handle('session:snapshot', { path });
    if (!open.ok) throw new Error(`the session did not open: ${JSON.stringify(open.error)}`);
    let next = 0;
    const append = (): void => appendFileSync(path, `${records[next++ % records.length]}\n`);
    // The watcher is ready and the index has the session as it is: one append seen through, untimed.
    for (let tries = 0; tries < 20; tries++) {
      const seen = nextEvent(host, appended(path), 500);
      append();
      if (await seen) break;
    }
    await nextEvent(host, analysed(path), 30_000);
    for (let i = 0; i < APPENDS; i++) {
      const seen = nextEvent(host, appended(path), 30_000);
      const settled = nextEvent(host, analysed(path), 30_000);
      const t0 = performance.now();
      append();
      if (!(await seen)) throw new Error('no session:changed for an append within 30 s');
      run.event.push(performance.now() - t0);
      const snap = await host.handle('session:snapshot', { path });
      if (!snap.ok) throw new Error(`the snapshot failed: ${JSON.stringify(snap.error)}`);
      run.painted.push(performance.now() - t0);
      // The next append comes once the index has the row's figures again (a person reads meanwhile).
      await settled;
    }
  } finally {
    host.close();
    rmSync(work, { recursive: true, force: true });
  }
  return run;
}

async function main(): Promise<void> {
  const generated = join(ROOT, 'fixtures/corpus/generated');
  const sources = readdirSync(generated)
    .filter((n) => /^\d\d-/.test(n))
    .sort()
    .map((n) => join(generated, n, 'transcript.jsonl'));
  // The records appended: the first scenario's, as the large file's next repetition would have them.
  const records = readFileSync(sources[0] as string, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => renameIds(l, 'feed0001'));
  const tmp = join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  const large = largeFiles(sources, tmp, 'live');
  console.log(`Live session: append → window data in hand (session:changed, then session:snapshot answered and parsed), host with watcher and 2 work threads; median of ${APPENDS}`);
  for (const mb of SIZES) {
    const big = await large(mb);
    const before = await measure(big.path, records, false);
    const after = await measure(big.path, records, true);
    const a = median(after.painted);
    const b = median(before.painted);
    console.log(
      `append → painted at ${mb} MB: ${a.toFixed(0)} ms median of ${APPENDS} (event ${median(after.event).toFixed(0)} ms); read whole again: ${b.toFixed(0)} ms (event ${median(before.event).toFixed(0)} ms); ratio ${(a / b).toFixed(2)}×`,
    );
  }
}

await main();
