// One cold refresh of a kept tree, for profiling (`node [--cpu-prof | --perf-basic-prof] apps/cli/bin/run-ts.mjs
// scripts/bench/cold-refresh.ts <projects folder> [--workers N] [--dump FILE]`).
//
// Opens a fresh index on the folder (a new database in a temporary folder), runs one full refresh
// with analysis, and prints each phase's wall time and the CPU of this process (every thread) up
// to it, then each thread's CPU (Linux): the main thread, the index threads, and V8's helper threads
// (its optimising compiler and parallel GC, shared by every isolate). `--dump` writes what was stored
// (rows, checkpoints, hourly usage, search text; no ids or times) and prints a hash of each table: a
// change to the refresh must leave them the same. `--workers 0` runs every job inline, on this thread: its CPU against `bench:index-job`'s
// jobs on the same tree is what the refresh spends around them without any thread. Figures are
// printed, never asserted.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultAgents } from '@glassbox/agents';
import { openIndex } from '@glassbox/store';
import { openDatabase } from '../../packages/store/src/index/db';
import { SEARCH_ROWS_PER_FILE } from '../../packages/store/src/index/statements';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? 'fixtures/corpus');
const wi = args.indexOf('--workers');
const workers = wi >= 0 ? Number(args[wi + 1]) : undefined;
const di = args.indexOf('--dump');
const dumpTo = di >= 0 ? args[di + 1] : undefined;
const cpu = (since?: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
/** Each thread's CPU so far (Linux: /proc/self/task), by its name: the main thread, the workers, V8's and libuv's helpers. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  const tick = 10; // ms per clock tick (USER_HZ 100)
  for (const t of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(f[11]) + Number(f[12])) * tick;
      const key = t === String(process.pid) ? 'main thread' : `${name}#${t}`;
      out.set(key, (out.get(key) ?? 0) + ms);
    } catch {
      // the thread ended
    }
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'glassbox-cold-refresh-'));
try {
  const index = openIndex({ agents: defaultAgents(), dbPath: join(dir, 'index.db'), roots: [root], ...(workers !== undefined ? { workers } : {}) });
  const before = threadCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const marks: string[] = [];
  let phase = '';
  const report = await index.refresh({
    onProgress: (p) => {
      if (p.phase === phase) return;
      phase = p.phase;
      marks.push(`${p.phase} from ${sec(performance.now() - t0)} (CPU ${sec(cpu(c0))})`);
    },
  });
  const wall = performance.now() - t0;
  const all = cpu(c0);
  const after = threadCpu();
  await index.close();
  console.log(marks.join('\n'));
  if (dumpTo) dump(join(dir, 'index.db'), dumpTo);
  const byThread = [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  console.log(`CPU by thread: ${byThread.map(([k, v]) => `${k} ${sec(v)}`).join(', ')}`);
  console.log(`${report.files} files, ${report.analysed} analysed; cold refresh ${sec(wall)}, CPU ${sec(all)} (all threads, workers: ${workers ?? 'default'})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * What the refresh stored, without row ids or times (a change to the refresh must leave it the same):
 * every row with its checkpoint, its hourly usage and its search text, one table a line, and a hash of each.
 */
function dump(dbPath: string, to: string): void {
  const { db } = openDatabase(dbPath);
  const per = SEARCH_ROWS_PER_FILE;
  const tables = {
    files: db.prepare("SELECT f.*, s.state AS checkpoint FROM files f LEFT JOIN file_state s ON s.file_id = f.id ORDER BY f.path").all().map((r) => {
      const { id: _id, indexed_at: _at, ...rest } = r as Record<string, unknown>;
      return rest;
    }),
    usage: db.prepare('SELECT f.path, u.hour, u.model, u.messages, u.input, u.output, u.cache_creation, u.cache_read, u.cost, u.unpriced FROM usage_hours u JOIN files f ON f.id = u.file_id ORDER BY f.path, u.hour, u.model').all(),
    search: db.prepare('SELECT f.path, s.rowid - f.id * ? AS seq, s.text FROM search s JOIN files f ON s.rowid / ? = f.id ORDER BY f.path, seq').all(per, per),
  };
  db.close();
  const lines = Object.entries(tables).map(([k, rows]) => `${k} ${rows.length} ${createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16)}`);
  console.log(`stored: ${lines.join('; ')}`);
  writeFileSync(to, JSON.stringify(tables, null, 1));
}
