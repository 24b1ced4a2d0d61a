// `glassbox ui` as a user runs it: the URL (token included) is the first line, --port is honoured,
// bad options are refused with exit code 2.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

const CLI = join(REPO_ROOT, 'apps/cli/bin/glassbox.mjs');
let seeded: Seeded | null = null;
afterEach(() => {
  seeded?.cleanup();
  seeded = null;
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('glassbox ui', () => {
  it('prints its URL with the token on the first line and serves on the asked port', async () => {
    seeded = seedConfigDir(['05-autocompact']);
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'ui', '--no-open', '--port', String(port)], {
      // CODEX_HOME and GEMINI_CLI_HOME too, so that the machine's own ~/.codex and ~/.gemini are not looked at.
      env: { ...process.env, CLAUDE_CONFIG_DIR: seeded.configDir, CODEX_HOME: join(seeded.configDir, 'codex'), GEMINI_CLI_HOME: join(seeded.configDir, 'gemini'), GLASSBOX_DATA_DIR: seeded.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
      expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[\\w-]{20,}$`));
      const token = new URL(first).searchParams.get('token') as string;
      const res = await fetch(`http://127.0.0.1:${port}/api/invoke/sessions:list`, { method: 'POST', headers: { 'x-glassbox-token': token }, body: '{}' });
      const body = (await res.json()) as { ok: boolean; value: { roots: string[] } };
      expect(body.value.roots).toEqual([seeded.projectsDir, join(seeded.configDir, 'codex', 'sessions'), join(seeded.configDir, 'codex', 'archived_sessions'), join(seeded.configDir, 'gemini', '.gemini', 'tmp')]);
      expect((await fetch(`http://127.0.0.1:${port}/api/invoke/sessions:list`, { method: 'POST', body: '{}' })).status).toBe(403);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 60_000);

  it('refuses a bad port or repo mapping with exit code 2', () => {
    const port = spawnSync(process.execPath, [CLI, 'ui', '--no-open', '--port', 'http'], { encoding: 'utf8' });
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port must be a whole number');
    const repo = spawnSync(process.execPath, [CLI, 'ui', '--no-open', '--repo', 'nofolder'], { encoding: 'utf8' });
    expect(repo.status).toBe(2);
    expect(repo.stderr).toContain('--repo takes');
  }, 60_000);
});
