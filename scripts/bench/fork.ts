// The fork of a large transcript (what `glassbox clean --fork --min-savings 0` does: plan, index,
// transform + validate + write + archive, checks) against the floor measured in the same process:
// reading, splitting and JSON.parse of the same bytes. Each size runs in a child process of its own
// so that its peak RSS is the fork's; wall and CPU times are both given (CPU is robust to a busy
// machine). Figures are printed, never asserted.
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scanLines } from '@glassbox/file-io';
import { planFromFile, writeFork } from '@glassbox/store/fork';
import { buildLargeTranscript } from './synthetic';

const ROOT = resolve(import.meta.dirname, '../..');

interface Timing {
  ms: number;
  cpuMs: number;
}

function timed(run: () => void): Timing {
  const c = process.cpuUsage();
  const t = performance.now();
  run();
  const u = process.cpuUsage(c);
  return { ms: performance.now() - t, cpuMs: (u.user + u.system) / 1000 };
}

/** In the child: one fork of `path`, then the floor on the same bytes. */
function child(path: string): void {
  const archiveDir = mkdtempSync(join(tmpdir(), 'glassbox-bench-fork-'));
  let forkPath = '';
  let actions = 0;
  let ok = false;
  const fork = timed(() => {
    const forkId = randomUUID();
    const options = { minimumSavings: 0, forkSessionId: forkId };
    const planned = planFromFile(path, options);
    const r = writeFork({ sourcePath: path, archiveDir, newSessionId: forkId, prepare: () => ({ actions: planned.actions, cwd: planned.session.cwd, indexed: planned.indexed }) });
    if (r.status === 'written') {
      forkPath = r.forkPath;
      actions = r.applied.length;
      ok = r.report.ok;
    }
  });
  const maxRss = process.resourceUsage().maxRSS * 1024;
  if (forkPath) rmSync(forkPath, { force: true });
  rmSync(archiveDir, { recursive: true, force: true });
  const floor = timed(() =>
    scanLines(path, (text) => {
      if (text.length > 0) JSON.parse(text);
    }),
  );
  console.log(JSON.stringify({ fork, floor, maxRss, actions, ok }));
}

const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;
const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** `sizes` in MB; `sources`: the real transcripts the large files are made of (their last one ends the file). */
export async function benchFork(sources: string[], sizes: readonly number[], tmp: string): Promise<void> {
  console.log('Fork of a large transcript of real records (plan, index, transform + validate + write + archive, checks)');
  for (const size of sizes) {
    const big = join(tmp, `fork-${size}mb.jsonl`);
    const bytes = await buildLargeTranscript(sources, big, size * 1024 * 1024);
    const r = spawnSync(process.execPath, [join(ROOT, 'apps/cli/bin/run-ts.mjs'), join(ROOT, 'scripts/bench/fork.ts'), '--child', big], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0 || !line.startsWith('{')) {
      console.log(`  ${mb(bytes)}: the fork failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`);
      continue;
    }
    const m = JSON.parse(line) as { fork: Timing; floor: Timing; maxRss: number; actions: number; ok: boolean };
    console.log(
      `  ${mb(bytes)}: fork ${sec(m.fork.ms)} (CPU ${sec(m.fork.cpuMs)}) = ${(m.fork.ms / m.floor.ms).toFixed(2)}× the floor's ${sec(m.floor.ms)} (CPU ${(m.fork.cpuMs / m.floor.cpuMs).toFixed(2)}×); peak RSS ${mb(m.maxRss)}; ${m.actions} payloads removed, validation ${m.ok ? 'passed' : 'FAILED'}`,
    );
  }
}

if (process.argv[2] === '--child') child(process.argv[3] ?? '');
