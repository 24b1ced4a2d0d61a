// keep, restore and archive on a scratch copy of a real session in a Claude Code configuration folder,
// with the client's deletion played by removing what the client removes (the real client does it in
// scripts/retention/retention-e2e.ts): the session stays listed, inspectable and costed from the archive.
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionRow } from '@glassbox/store';
import { runCli } from './cli-test-io';

const REPO = resolve(import.meta.dirname, '../../../..');
const FIXTURE = join(REPO, 'fixtures/corpus/generated/04-subagent-compact-multiturn');
const SESSION_ID = 'db5075e3-fee3-4d57-a736-cd3f2035f95a';
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function install() {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-keep-'));
  made.push(root);
  const config = join(root, 'config');
  const projectDir = join(config, 'projects', '-tmp-keep');
  mkdirSync(join(config, 'projects'), { recursive: true });
  cpSync(join(FIXTURE, 'claude-project'), projectDir, { recursive: true });
  cpSync(join(FIXTURE, 'file-history'), join(config, 'file-history'), { recursive: true });
  const fix = (p: string): void => {
    const dir = statSync(p).isDirectory();
    chmodSync(p, dir ? 0o755 : 0o644);
    if (dir) for (const n of readdirSync(p)) fix(join(p, n));
  };
  fix(config);
  return { config, projectDir, path: join(projectDir, `${SESSION_ID}.jsonl`), env: { CLAUDE_CONFIG_DIR: config, GLASSBOX_DATA_DIR: join(root, 'data'), HOME: root } };
}

describe('glassbox keep, restore, archive', () => {
  it('keeps a session, lists and reads it from the archive after the client deleted it, and restores it', async () => {
    const s = install();
    writeFileSync(join(s.config, 'settings.json'), '{"cleanupPeriodDays": 3}');
    const original = readFileSync(s.path);

    const listed = await runCli(['sessions', '--json', '--workers', '0', '--no-analysis'], s.env);
    expect(listed.code).toBe(0);
    expect(listed.err).toContain(`${s.config}: sessions are deleted after only 3 days without changes (cleanupPeriodDays 3 in ${join(s.config, 'settings.json')})`);
    const [row] = JSON.parse(listed.out) as SessionRow[];
    expect(row?.expiresAt).toBe(new Date(statSync(s.path).mtimeMs + 3 * 86_400_000).toISOString());
    expect(row?.kept).toBeNull();

    const kept = await runCli(['keep', SESSION_ID], s.env);
    expect(kept.code).toBe(0);
    expect(kept.out).toMatch(new RegExp(`^kept ${SESSION_ID}  6 file\\(s\\), .* written \\(\\d+ new chunk\\(s\\), 0 reused\\) · the client deletes it in 2 days`, 'm'));
    const all = await runCli(['keep', '--all'], s.env);
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/^0 kept, 1 unchanged — 0 B written for/);
    expect(all.err).toBe('keeping: 1/1 sessions');

    // What the client's clean-up removes: the transcript, its folder, its checkpoint backups.
    rmSync(s.path);
    rmSync(join(s.projectDir, SESSION_ID), { recursive: true });
    rmSync(join(s.config, 'file-history', SESSION_ID), { recursive: true });

    const after = JSON.parse((await runCli(['sessions', '--json', '--workers', '0', '--no-analysis'], s.env)).out) as SessionRow[];
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ sessionId: SESSION_ID, subagents: 1, kept: { originalPath: s.path, gone: { byClient: false } } });
    const table = await runCli(['sessions', '--no-refresh'], s.env);
    expect(table.out.split('\n')[1]).toMatch(/gone \d{4}-\d\d-\d\d\s+yes$/);

    const keepCopy = await runCli(['keep', SESSION_ID], s.env);
    expect(keepCopy.code).toBe(2);
    expect(keepCopy.err).toContain('it is kept already');

    const inspect = await runCli(['inspect', SESSION_ID], s.env);
    expect(inspect.code).toBe(0);
    expect(inspect.out).toMatch(/keeping {2}kept — the original was removed on \d{4}-\d\d-\d\d; read-only copy of /);
    expect((await runCli(['cost', SESSION_ID, '--json'], s.env)).code).toBe(0);
    expect((await runCli(['xray', s.path], s.env)).code).toBe(0);
    const clean = await runCli(['clean', SESSION_ID, '--fork'], s.env);
    expect(clean.code).toBe(1);
    expect(clean.err).toContain('Restore it first (glassbox restore');

    const report = await runCli(['archive'], s.env);
    expect(report.out).toMatch(/^1 kept session\(s\), 1 version\(s\): .* on disk for .* of session files kept/);
    expect(report.out).toMatch(/gone \d{4}-\d\d-\d\d/);
    expect((await runCli(['archive', 'verify'], s.env)).out).toMatch(/^✓ the archive checks out: 1 kept session\(s\), 1 version\(s\), \d+ chunk\(s\) hashed, 6 newest file\(s\) reassembled/);

    const restored = await runCli(['restore', SESSION_ID], s.env);
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(`Restored ${SESSION_ID}`);
    expect(restored.out).toContain('with      5 side file(s)');
    expect(readFileSync(s.path).equals(original)).toBe(true);
    expect(existsSync(join(s.config, 'file-history', SESSION_ID, '3fb5c54520d9badb@v2'))).toBe(true);
    const again = await runCli(['restore', SESSION_ID], s.env);
    expect(again.code).toBe(1);
    expect(again.err).toContain('is there: a restore never writes over a file');
    const back = JSON.parse((await runCli(['sessions', '--json', '--workers', '0', '--no-analysis'], s.env)).out) as SessionRow[];
    expect(back.map((r) => r.path)).toEqual([s.path]);

    const dry = await runCli(['archive', 'prune', '--older-than', '0d'], s.env);
    expect(dry.out).toMatch(/^Dry run: nothing was removed/);
    expect(dry.out).toContain(`session ${SESSION_ID}`);
    expect((await runCli(['archive', '--json'], s.env)).out).toContain(SESSION_ID);
    const pruned = await runCli(['archive', 'prune', '--older-than', '0d', '--yes'], s.env);
    expect(pruned.out).toMatch(/^removed 1 session\(s\) and 0 older version\(s\); \d+ chunk\(s\), .* freed$/);
    expect((await runCli(['archive'], s.env)).out).toMatch(/holds no kept session yet/);
  });

  it('says what is wrong with bad input (exit 2) and refusals (exit 1)', async () => {
    const s = install();
    expect((await runCli(['keep'], s.env)).code).toBe(2);
    expect((await runCli(['keep', 'nope-nope'], s.env)).code).toBe(2);
    const notKept = await runCli(['restore', SESSION_ID], s.env);
    expect(notKept.code).toBe(2);
    expect(notKept.err).toContain(`no kept session "${SESSION_ID}"`);
    const badAge = await runCli(['archive', 'prune', '--older-than', 'soon'], s.env);
    expect(badAge.code).toBe(2);
    expect(badAge.err).toContain('give a span such as 90d');
  });
});
