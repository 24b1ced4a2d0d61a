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
import { fileURLToPath } from 'node:url';
import { scanLines } from '@glassbox/file-io';
import { planFromFile, writeFork } from '@glassbox/store/fork';
import type { LargeFile } from './memory';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

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

/**
 * One fork of `path` as `clean --fork --min-savings 0` makes it, timed; the fork and the archive are
 * removed after, outside the time (deleting a fork is no part of making one).
 */
function forkOnce(path: string): { actions: number; ok: boolean; timing: Timing } {
  const archiveDir = mkdtempSync(join(tmpdir(), 'glassbox-bench-fork-'));
  let forkPath: string | null = null;
  try {
    const forkId = randomUUID();
    let result = { actions: 0, ok: false };
    const timing = timed(() => {
      // As `clean --fork` and the app write a fork: the plan made inside the write, while the
      // original is copied into the archive on another thread.
      const r = writeFork({ agents: TEST_AGENTS,
        sourcePath: path,
        archiveDir,
        newSessionId: forkId,
        prepare: (src) => {
          const planned = planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), minimumSavings: 0, forkSessionId: src.forkId });
          return { actions: planned.actions, cwd: planned.session.cwd, indexed: planned.indexed, session: planned.session };
        },
      });
      if (r.status !== 'written') return;
      forkPath = r.forkPath;
      result = { actions: r.applied.length, ok: r.report.ok };
    });
    return { ...result, timing };
  } finally {
    if (forkPath) rmSync(forkPath, { force: true });
    rmSync(archiveDir, { recursive: true, force: true });
  }
}

function floor(path: string): void {
  scanLines(path, (text) => {
    if (text.length > 0) JSON.parse(text);
  });
}

/**
 * In the child: the floor and the fork run alternately `runs` times and the best of each is kept, so
 * that load from other processes hits both alike; the peak RSS is read after the first fork.
 */
function child(path: string, runs: number): void {
  let best = { fork: { ms: Infinity, cpuMs: Infinity }, floor: { ms: Infinity, cpuMs: Infinity } };
  let maxRss = 0;
  let result = { actions: 0, ok: false };
  for (let i = 0; i < runs; i++) {
    const { timing: f, ...once } = forkOnce(path);
    result = once;
    if (i === 0) maxRss = process.resourceUsage().maxRSS * 1024;
    const b = timed(() => floor(path));
    best = {
      fork: { ms: Math.min(best.fork.ms, f.ms), cpuMs: Math.min(best.fork.cpuMs, f.cpuMs) },
      floor: { ms: Math.min(best.floor.ms, b.ms), cpuMs: Math.min(best.floor.cpuMs, b.cpuMs) },
    };
  }
  console.log(JSON.stringify({ ...best, maxRss, ...result }));
}

const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;
const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** `sizes` in MB, of large files whose last session has provably dead payloads to remove. */
export async function benchFork(large: LargeFile, sizes: readonly number[], runs = 2): Promise<void> {
  console.log('Fork of a large transcript of real records (plan, index, transform + validate + write + archive, checks)');
  for (const size of sizes) {
    const { path: big, bytes } = await large(size);
    const r = spawnSync(process.execPath, [join(ROOT, 'apps/cli/bin/run-ts.mjs'), join(ROOT, 'scripts/bench/fork.ts'), '--child', big, String(runs)], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0 || !line.startsWith('{')) {
      console.log(`  ${mb(bytes)}: the fork failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`);
      continue;
    }
    const m = JSON.parse(line) as { fork: Timing; floor: Timing; maxRss: number; actions: number; ok: boolean };
    console.log(
      `  ${mb(bytes)}: fork ${sec(m.fork.ms)} = ${(m.fork.ms / m.floor.ms).toFixed(2)}× the floor's ${sec(m.floor.ms)} (best of ${runs}; CPU of all threads ${sec(m.fork.cpuMs)} vs ${sec(m.floor.cpuMs)}); peak RSS ${mb(m.maxRss)}; ${m.actions} payloads removed, validation ${m.ok ? 'passed' : 'FAILED'}`,
    );
  }
}

// Only when this file is the script run (read-side.ts imports it).
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') child(process.argv[3] ?? '', Number(process.argv[4] ?? 2));
