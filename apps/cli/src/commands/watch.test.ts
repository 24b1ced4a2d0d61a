import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyScenario, tempTree, type TempTree } from '@glassbox/test-support/store/corpus';

let tree: TempTree;
afterEach(() => tree?.cleanup());

const BIN = resolve(import.meta.dirname, '../../bin/glassbox.mjs');

it('glassbox watch prints one line per change and exits cleanly on Ctrl-C (SIGINT)', async () => {
  tree = tempTree();
  const root = tree.root('claude');
  const project = copyScenario(root, '02-gone-drift-errors');
  const path = join(project, readdirSync(project).find((n) => n.endsWith('.jsonl')) as string);
  const text = readFileSync(path);
  const cut = text.indexOf(10, Math.floor(text.length / 2)) + 1;
  writeFileSync(path, text.subarray(0, cut));

  const child = spawn(process.execPath, [BIN, 'watch', '--workers', '0', '--no-analysis', '--debounce', '50'], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), GLASSBOX_DATA_DIR: join(tree.dir, 'data'), HOME: tree.dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  // Waits for the output to say something: checked on each chunk the child writes (the listeners
  // above run first, so the text is in). The timer is only a guard that fails with what was printed.
  const until = (test: () => boolean, what: string) =>
    new Promise<void>((resolveWait, reject) => {
      const check = () => {
        if (!test()) return;
        stop();
        resolveWait();
      };
      const fail = (why: string) => () => {
        stop();
        reject(new Error(`${why} waiting for ${what}; stdout: ${out}; stderr: ${err}`));
      };
      const exitedEarly = fail('the watcher exited');
      const guard = setTimeout(fail('timed out'), 20_000);
      const stop = () => {
        clearTimeout(guard);
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        child.off('exit', exitedEarly);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.once('exit', exitedEarly);
      check();
    });
  try {
    await until(() => err.includes('watching '), 'the watcher to start');
    expect(err).toMatch(/1 files: 1 new/);
    appendFileSync(path, text.subarray(cut));
    await until(() => /appended/.test(out), 'the append line');
    const line = out.split('\n').find((l) => l.includes('appended')) ?? '';
    expect(line).toMatch(/^\d\d:\d\d:\d\d {2}appended {3}.*gone-drift-errors\/project \/ Tidy up.*context [\d.]+k · \d+ turns · \$\d/);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(err).toMatch(/stopped\s*$/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

it('glassbox watch keeps idle sessions when "keep every session automatically" is on', async () => {
  tree = tempTree();
  const root = tree.root('claude');
  const project = copyScenario(root, '01-superseded-reads');
  const path = join(project, readdirSync(project).find((n) => n.endsWith('.jsonl')) as string);
  const idle = new Date(Date.now() - 3600_000);
  utimesSync(path, idle, idle);
  mkdirSync(join(tree.dir, 'data'), { recursive: true });
  writeFileSync(join(tree.dir, 'data', 'settings.json'), '{"autoKeep": true}');
  const child = spawn(process.execPath, [BIN, 'watch', '--workers', '0', '--no-analysis'], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), GLASSBOX_DATA_DIR: join(tree.dir, 'data'), HOME: tree.dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    // The first pass runs as soon as the watcher is up: the line is the event waited for.
    const line = await new Promise<string>((resolveLine) => createInterface({ input: child.stdout }).on('line', (l) => l.includes('kept (idle)') && resolveLine(l)));
    expect(line).toMatch(/^\d\d:\d\d:\d\d {2}kept \(idle\) [0-9a-f-]{36} {2}.* written$/);
    expect(readdirSync(join(tree.dir, 'data', 'archive', 'kept')).filter((n) => !n.startsWith('.'))).toHaveLength(1);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
