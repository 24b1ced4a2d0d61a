// Memory follows the window: `glassbox inspect --json` run on large transcripts of real records, one
// child process per size, each reporting its peak RSS. The child is the command a user runs
// (apps/cli/bin/glassbox.mjs, on the bundle `npm ci` builds, rebuilt here first so it is current),
// its peak read by a preloaded reporter (report-rss.mjs). The resident window is the same few segments
// at every size, so the difference between sizes is what still grows with the file. Printed, never
// asserted (the goal: 500 MB no more than 30 MB above 200 MB).
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chooseEntry } from '../../apps/cli/bin/entry.mjs';
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

const BIN = join(ROOT, 'apps/cli/bin/glassbox.mjs');
const REPORT = pathToFileURL(join(ROOT, 'scripts/bench/report-rss.mjs')).href;

/** The launcher run as a user runs it, stdout discarded: its exit code, time and peak RSS (null when it reported none). */
function runCli(args: string[], env: NodeJS.ProcessEnv): { code: number | null; ms: number; maxRss: number | null; stderr: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', REPORT, BIN, ...args], { encoding: 'utf8', env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 24 });
  const ms = performance.now() - t;
  const line = r.stderr.split('\n').find((l) => l.startsWith('glassbox-bench-rss '));
  const maxRss = line ? (JSON.parse(line.slice('glassbox-bench-rss '.length)) as { maxRss: number }).maxRss : null;
  return { code: r.status, ms, maxRss, stderr: r.stderr };
}

/** The bundle built afresh, and which entry the launcher will start (so the figures say what they measured). */
function currentEntry(): string {
  const built = spawnSync(process.execPath, [join(ROOT, 'apps/cli/build/bundle.mjs')], { encoding: 'utf8' });
  if (built.status !== 0) console.log(`  the CLI bundle did not build: ${built.stderr.trim().split('\n').slice(-1).join('')}`);
  const entry = chooseEntry(join(ROOT, 'apps/cli'));
  return entry.kind === 'bundle' ? 'the bundle' : `the TypeScript sources (${entry.why})`;
}

/** Peak RSS of `glassbox --version`: what the CLI holds before it reads a byte, on the bundle and on the sources. */
function startup(env: NodeJS.ProcessEnv): void {
  const bundle = runCli(['--version'], env).maxRss;
  const source = runCli(['--version'], { ...env, GLASSBOX_FROM_SOURCE: '1' }).maxRss;
  console.log(`  startup (glassbox --version): peak RSS ${bundle === null ? '?' : mb(bundle)} on the bundle, ${source === null ? '?' : mb(source)} through the TypeScript loader`);
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
  console.log(`inspect --json on large transcripts of real records: time against the floor in this process (best of ${runs}), peak RSS of \`glassbox\` in a process of its own`);
  console.log(`  the glassbox command runs ${currentEntry()}`);
  startup({ ...process.env, GLASSBOX_DATA_DIR: dataDir });
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
    const m = runCli(['inspect', '--json', big], { ...process.env, GLASSBOX_DATA_DIR: dataDir });
    if (m.code !== 0 || m.maxRss === null) {
      console.log(`  ${mb(bytes)}: inspect failed (exit ${m.code}): ${m.stderr.trim().split('\n').slice(-2).join(' ')}`);
      continue;
    }
    peaks.push(m.maxRss);
    console.log(`  ${mb(bytes)}: peak RSS ${mb(m.maxRss)} (goal: at most 150 MB; ${(m.ms / 1000).toFixed(1)} s as a command, exit ${m.code})`);
  }
  if (peaks.length === 2) console.log(`  difference ${sizes[1]} MB − ${sizes[0]} MB: ${mb((peaks[1] as number) - (peaks[0] as number))} (goal: at most 30 MB)`);
}
