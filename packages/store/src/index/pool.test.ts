import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from './index';
import { isThreadStopped, JobPool } from './pool';
import { copyScenario, tempTree, type TempTree } from '../test-corpus';
import { bundleWorker } from './worker-source';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

let tree: TempTree;
let pool: JobPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
  tree?.cleanup();
});

/**
 * A worker script that runs the index's real jobs, except that it ends its own thread, with no error
 * event (as the OS killing it, or an exit deep in native code, would), when given a file whose name
 * holds "-dies-". Bundled the way the pool bundles its own worker, into the test's folder.
 */
function dyingWorker(dir: string): URL {
  const entry = join(dir, 'dying-worker-entry.js');
  writeFileSync(
    entry,
    [
      "const { parentPort } = require('node:worker_threads');",
      `const { runJob } = require(${JSON.stringify(join(import.meta.dirname, 'worker-main.ts'))});`,
      `const agents = require(${JSON.stringify(join(import.meta.dirname, '../../../agents/src/index.ts'))}).defaultAgents();`,
      'parentPort.on("message", (msg) => {',
      '  if (msg.request.path.includes("-dies-")) process.exit(7);',
      '  parentPort.postMessage({ id: msg.id, result: runJob(msg.request, agents) });',
      '});',
    ].join('\n'),
  );
  const source = bundleWorker(entry);
  if (source === null) throw new Error('esbuild could not bundle the test worker');
  const file = join(dir, 'dying-worker.cjs');
  writeFileSync(file, source);
  return pathToFileURL(file);
}

/** A real session of the corpus, renamed so the dying worker stops on it. */
function sessions(root: string): { good: string; dies: string } {
  const folder = copyScenario(root, '01-superseded-reads');
  const [file] = readdirSync(folder).filter((n) => n.endsWith('.jsonl'));
  const good = join(folder, file as string);
  const second = copyScenario(root, '02-gone-drift-errors');
  const [other] = readdirSync(second).filter((n) => n.endsWith('.jsonl'));
  const dies = join(second, `${(other as string).slice(0, 8)}-dies-${(other as string).slice(14)}`);
  renameSync(join(second, other as string), dies);
  return { good, dies };
}

describe('the index worker pool', () => {
  it('fails the job of a thread that exits without an error, naming what happened, and a new thread takes the next job', async () => {
    tree = tempTree();
    const { good, dies } = sessions(tree.root('a'));
    pool = new JobPool(TEST_AGENTS, 1, dyingWorker(tree.dir));
    const summarize = (path: string) => ({ type: 'summarize' as const, agent: 'claude-code', path, subagentFile: false, fromOffset: 0, fromLine: 0, state: null });
    const lost = await pool.run(summarize(dies));
    expect(isThreadStopped(lost)).toBe(true);
    expect(isThreadStopped(lost) && lost.message).toMatch(/stopped \(exit code 7\)/);
    const next = await pool.run(summarize(good));
    expect(next.ok).toBe(true);
    // Still on threads: one death is not a machine that cannot run them.
    expect(pool.failure).toBeNull();
  });

  it('leaves no pending job and no half-written row: the refresh ends, says which file, and the next refresh reads it', async () => {
    tree = tempTree();
    const root = tree.root('a');
    const { good, dies } = sessions(root);
    const dbPath = join(tree.dir, 'data', 'index.db');
    const dying = openIndex({ agents: TEST_AGENTS, roots: [root], dbPath, workers: 1, workerUrl: dyingWorker(tree.dir) });
    const report = await dying.refresh();
    expect(report.notices.filter((n) => n.startsWith(`${dies}: `) && n.includes('exit code 7'))).toHaveLength(1);
    const rows = new Map(dying.list().map((r) => [r.path, r]));
    expect(rows.get(good)?.turns).toBeGreaterThan(0);
    // Listed from its head and tail, never summarised: no figures of a pass that did not finish.
    expect(rows.get(dies)?.records).toBe(0);
    dying.close();
    const healthy = openIndex({ agents: TEST_AGENTS, roots: [root], dbPath, workers: 0 });
    await healthy.refresh();
    expect(healthy.list().find((r) => r.path === dies)?.records).toBeGreaterThan(0);
    healthy.close();
  });
});
