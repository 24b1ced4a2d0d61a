// Memory follows the window: `glassbox inspect --json` run on large transcripts of real records, one
// child process per size, each reporting its peak RSS. The resident window is the same few segments
// at every size, so the difference between sizes is what still grows with the file. Printed, never
// asserted (the goal: 500 MB no more than 30 MB above 200 MB).
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../apps/cli/src/main';
import type { CliIO } from '../../apps/cli/src/io';
import { buildLargeTranscript } from './synthetic';

const ROOT = resolve(import.meta.dirname, '../..');

/** The real command on `path`, its output written to /dev/null as a terminal-less run would; its exit code. */
async function inspectToNull(path: string): Promise<number> {
  const fd = openSync('/dev/null', 'w');
  const io: CliIO = {
    out: (t) => void writeSync(fd, t.endsWith('\n') ? t : t + '\n'),
    write: (t) => void writeSync(fd, t),
    err: (t) => void process.stderr.write(t),
    env: process.env,
    color: false,
    isTTY: false,
    exitCode: 0,
  };
  try {
    return await main(['node', 'glassbox', 'inspect', '--json', path], io);
  } finally {
    closeSync(fd);
  }
}

/** In the child: one run, its time and peak RSS. */
async function child(path: string): Promise<void> {
  const t = performance.now();
  const code = await inspectToNull(path);
  console.log(JSON.stringify({ code, ms: performance.now() - t, maxRss: process.resourceUsage().maxRSS * 1024 }));
}

const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;

/** A large transcript of real records of about `megabytes`, made once and kept in the bench's folder. */
export type LargeFile = (megabytes: number) => Promise<{ path: string; bytes: number }>;

export function largeFiles(sources: string[], tmp: string, name: string): LargeFile {
  return async (megabytes) => {
    const path = join(tmp, `${name}-${megabytes}mb.jsonl`);
    return { path, bytes: await buildLargeTranscript(sources, path, megabytes * 1024 * 1024) };
  };
}

/**
 * `inspect --json`'s time against the floor (one thread reading, splitting and JSON.parse-ing every
 * line) on the same file in this process, best of `runs` each, run alternately; and its peak RSS at
 * each size (MB), one child process each.
 */
export async function benchInspectMemory(large: LargeFile, sizes: readonly number[], dataDir: string, floor: (path: string) => void, runs = 3): Promise<void> {
  console.log(`inspect --json on large transcripts of real records: time against the floor in this process (best of ${runs}), peak RSS in a process of its own`);
  const peaks: number[] = [];
  const previous = process.env['GLASSBOX_DATA_DIR'];
  for (const size of sizes) {
    const { path: big, bytes } = await large(size);
    process.env['GLASSBOX_DATA_DIR'] = dataDir;
    let tf = Infinity;
    let ti = Infinity;
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      floor(big);
      tf = Math.min(tf, performance.now() - t);
      t = performance.now();
      await inspectToNull(big);
      ti = Math.min(ti, performance.now() - t);
    }
    if (previous === undefined) delete process.env['GLASSBOX_DATA_DIR'];
    else process.env['GLASSBOX_DATA_DIR'] = previous;
    console.log(`  ${mb(bytes)}: inspect ${(ti / 1000).toFixed(2)} s = ${(ti / tf).toFixed(2)}× the floor's ${(tf / 1000).toFixed(2)} s`);
    const r = spawnSync(process.execPath, [join(ROOT, 'apps/cli/bin/run-ts.mjs'), join(ROOT, 'scripts/bench/memory.ts'), '--child', big], {
      encoding: 'utf8',
      env: { ...process.env, GLASSBOX_DATA_DIR: dataDir },
    });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (!line.startsWith('{')) {
      console.log(`  ${mb(bytes)}: inspect failed (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
      continue;
    }
    const m = JSON.parse(line) as { code: number; ms: number; maxRss: number };
    peaks.push(m.maxRss);
    console.log(`  ${mb(bytes)}: peak RSS ${mb(m.maxRss)} (goal: at most 150 MB; ${(m.ms / 1000).toFixed(1)} s in its process, exit ${m.code})`);
  }
  if (peaks.length === 2) console.log(`  difference ${sizes[1]} MB − ${sizes[0]} MB: ${mb((peaks[1] as number) - (peaks[0] as number))} (goal: at most 30 MB)`);
}

// Only when this file is the script run (read-side.ts imports it).
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') await child(process.argv[3] ?? '');
