// Inputs that hung or lied: a price table that is a FIFO or /dev/zero (read until it ends, never), a
// huge one, a `match` pattern that backtracks on a hostile model name, and usage whose token counts are
// negative (a negative cost). Each is refused or reported at once. The inputs are made here, in a
// temporary folder, from a real session.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-test-io';

const SESSION = resolve(import.meta.dirname, '../../../../fixtures/corpus/generated/02-gone-drift-errors/transcript.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'glassbox-pathological-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { GLASSBOX_DATA_DIR: join(dir, 'data'), CLAUDE_CONFIG_DIR: join(dir, 'claude') };
const price = (match: string) => JSON.stringify({ models: [{ match, label: 'x', input: 1, output: 1, cacheWrite5m: 1, cacheWrite1h: 1, cacheRead: 1 }] });

describe('a price table', () => {
  it('that is a FIFO or a device is refused (exit 2) without being read', async () => {
    const fifo = join(dir, 'prices.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const p of [fifo, '/dev/zero']) {
      const r = await runCli(['cost', SESSION, '--prices', p], env);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/must be a regular file/);
    }
    const viaEnv = await runCli(['cost', SESSION], { ...env, GLASSBOX_PRICES: '/dev/zero' });
    expect(viaEnv.code).toBe(2);
  });

  it('larger than 1 MB is refused', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, ' '.repeat(1024 * 1024 + 1));
    const r = await runCli(['cost', SESSION, '--prices', big], env);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/at most 1048576 bytes/);
  });

  it('whose pattern would backtrack is refused; bounded patterns and plain names are used', async () => {
    for (const bad of ['^(a+)+$', '(x|y)*z', '(.*a){12}', 'a*b*c*d', '(?<=x)y', '(a)\\1']) {
      const file = join(dir, 'bad.json');
      writeFileSync(file, price(bad));
      const r = await runCli(['cost', SESSION, '--prices', file], env);
      expect(r.code, bad).toBe(2);
      expect(r.err, bad).toMatch(/match/);
    }
    for (const good of ['claude-opus', '^claude-opus-4-(?:[5-9]|[1-9]\\d)(?!\\d)', 'opus.*4', '[a-z]+-\\d{1,2}$']) {
      const file = join(dir, 'good.json');
      writeFileSync(file, price(good));
      const r = await runCli(['cost', SESSION, '--prices', file, '--json'], env);
      expect(r.code, good).toBe(0);
    }
  });
});

describe('usage with negative token counts', () => {
  it('never gives a negative cost, and says which records were wrong', async () => {
    const edited = join(dir, 'negative.jsonl');
    writeFileSync(edited, readFileSync(SESSION, 'utf8').replace(/"output_tokens":\d+/g, '"output_tokens":-9000000'));
    const r = await runCli(['cost', edited, '--json'], env);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { total: { cost: number | null; usage: { outputTokens: number } } };
    expect(report.total.cost).toBeGreaterThanOrEqual(0);
    expect(report.total.usage.outputTokens).toBe(0);
    expect(r.err).toMatch(/a token count that is not a whole number of 0 or more; it was counted as 0/);
  });
});
