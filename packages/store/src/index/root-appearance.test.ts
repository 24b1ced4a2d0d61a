import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { whenRootAppears } from './root-appearance';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Resolves once `done()` is true, polling; rejects after a while with what was seen. */
function until(done: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (done()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > 10_000) {
        clearInterval(poll);
        reject(new Error(`never: ${what}`));
      }
    }, 10);
  });
}

it('calls once when the root is made, folder by folder or all at once', async () => {
  dir = mkdtempSync(join(tmpdir(), 'glassbox-appear-'));
  const stepwise = join(dir, 'a', 'b', 'root');
  const atOnce = join(dir, 'x', 'y', 'root');
  let stepCalls = 0;
  let onceCalls = 0;
  const a = whenRootAppears(stepwise, () => stepCalls++);
  const b = whenRootAppears(atOnce, () => onceCalls++);
  mkdirSync(join(dir, 'a'));
  await new Promise((r) => setTimeout(r, 50));
  mkdirSync(join(dir, 'a', 'b'));
  await new Promise((r) => setTimeout(r, 50));
  expect(stepCalls).toBe(0);
  mkdirSync(stepwise);
  mkdirSync(atOnce, { recursive: true });
  await until(() => stepCalls === 1 && onceCalls === 1, 'both roots seen');
  // Folders made inside afterwards call no more.
  mkdirSync(join(stepwise, 'inside'));
  await new Promise((r) => setTimeout(r, 100));
  expect([stepCalls, onceCalls]).toEqual([1, 1]);
  a.close();
  b.close();
});

it('calls at once for a root that exists, and never after close', async () => {
  dir = mkdtempSync(join(tmpdir(), 'glassbox-appear-'));
  let calls = 0;
  whenRootAppears(dir, () => calls++).close();
  expect(calls).toBe(1);
  const later = join(dir, 'p', 'root');
  whenRootAppears(later, () => calls++).close();
  mkdirSync(later, { recursive: true });
  await new Promise((r) => setTimeout(r, 100));
  expect(calls).toBe(1);
});
