import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-test-io';

const CORPUS = resolve(import.meta.dirname, '../../../../fixtures/corpus');
const file = (name: string): string => {
  const dir = join(CORPUS, 'generated', name, 'claude-project');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
};
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('glassbox export', () => {
  it('writes the whole session with each compaction in place, and refuses to write over a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-export-'));
    made.push(dir);
    const out = join(dir, 'session.md');
    const r = await runCli(['export', file('18-compaction-kept-dropped'), '--format', 'md', '--out', out, '--repo', join(CORPUS, 'generated/18-compaction-kept-dropped/project-after')], {});
    expect(r.code).toBe(0);
    expect(r.err).toContain('2 compactions in place');
    const md = readFileSync(out, 'utf8');
    expect(md.match(/^## Compaction \d/gm)).toHaveLength(2);
    expect(md).toContain('DEAD: stale · superseded');
    const again = await runCli(['export', file('18-compaction-kept-dropped'), '--format', 'html', '--out', out], {});
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists: nothing was written');
    expect(readFileSync(out, 'utf8')).toBe(md);
  });

  it('prints HTML that needs nothing else, and names a bad format', async () => {
    const r = await runCli(['export', file('15-autocompact-twice'), '--format', 'html'], {});
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^<!doctype html>/);
    expect(r.out).not.toMatch(/<script|<link|src=/i);
    const bad = await runCli(['export', file('15-autocompact-twice'), '--format', 'pdf'], {});
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--format must be one of md, html');
  });
});
