// `glassbox proxy` as a user runs it: `serve` prints its URL first and proxies real recorded
// requests, `status` and `show proxy` read what it did back, `run` points the client at it and
// returns the client's exit code; bad options are refused with exit code 2.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { recordedRun } from '@glassbox/test-support/request-anthropic/recorded';
import { replayUpstream, sendAsClient, type Upstream } from '@glassbox/test-support/proxy/replay';
import { REPO_ROOT } from '@glassbox/test-support/host/seed';
import { runCli } from './cli-test-io';

const CLI = join(REPO_ROOT, 'apps/cli/bin/glassbox.mjs');
const run = recordedRun('31-proxy-live-2.1.332');

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function scratch(): Promise<{ dir: string; repo: string; upstream: Upstream }> {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-cli-proxy-'));
  const repo = join(dir, 'repo');
  cpSync(run.projectAfter, repo, { recursive: true });
  const upstream = await replayUpstream(run.exchanges);
  cleanup.push(async () => {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, repo, upstream };
}

describe('glassbox proxy', () => {
  it('serve prints its URL first, proxies the requests, and status and show read back what it removed', async () => {
    const { dir, repo, upstream } = await scratch();
    const env = { ...process.env, GLASSBOX_DATA_DIR: join(dir, 'data') };
    const child = spawn(process.execPath, [CLI, 'proxy', 'serve', '--port', '0', '--upstream', upstream.url, '--repo', `${run.cwd}=${repo}`, '--evict-now'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanup.push(async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    });
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`proxy serve exited with ${code}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const ex of run.exchanges) expect((await sendAsClient(url, ex)).status).toBe(200);

    const status = await runCli(['proxy', 'status', '--json'], { GLASSBOX_DATA_DIR: join(dir, 'data') });
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.out) as { requests: number; removals: { sha256: string; source: string }[] }[];
    expect(parsed).toHaveLength(1);
    expect(parsed[0]?.requests).toBe(run.exchanges.length);
    expect(parsed[0]?.removals.map((r) => r.source).sort()).toEqual(['data/catalog.txt', 'docs/DESIGN.md', 'head -80 data/catalog.txt', 'src/inventory.py', 'src/settings.py']);
    const text = await runCli(['proxy', 'status'], { GLASSBOX_DATA_DIR: join(dir, 'data') });
    expect(text.out).toContain('docs/DESIGN.md');
    expect(text.out).toContain('gone');

    const design = parsed[0]?.removals.find((r) => r.source === 'docs/DESIGN.md');
    const shown = await runCli(['show', 'proxy', '--segment', design?.sha256.slice(0, 12) ?? ''], { GLASSBOX_DATA_DIR: join(dir, 'data') });
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('1\tDesign note 1: the inventory keeps quantities per item');
    const none = await runCli(['show', 'proxy', '--segment', 'abcdef123456'], { GLASSBOX_DATA_DIR: join(dir, 'data') });
    expect(none.code).toBe(2);
  });

  it('run points the client at a proxy of its own and returns the client’s exit code', async () => {
    const { dir, upstream } = await scratch();
    const body = join(dir, 'request.json');
    writeFileSync(body, run.exchanges[0]?.body ?? '');
    // A stand-in client: one request to wherever ANTHROPIC_BASE_URL points, then exit 3.
    const client = `const b=require('fs').readFileSync(${JSON.stringify(body)});fetch(process.env.ANTHROPIC_BASE_URL+'/v1/messages?beta=true',{method:'POST',headers:{'content-type':'application/json','x-api-key':'k'},body:b}).then(r=>r.text()).then(()=>process.exit(3))`;
    const ran = await runCli(['proxy', 'run', '--upstream', upstream.url, '--', process.execPath, '-e', client], { GLASSBOX_DATA_DIR: join(dir, 'data') });
    expect(ran.code).toBe(3);
    expect(upstream.received).toHaveLength(1);
    expect(upstream.received[0]?.body.equals(run.exchanges[0]?.body ?? Buffer.alloc(0))).toBe(true);
    expect(ran.err).toContain('1 request(s) in 1 conversation(s)');
  });

  it('refuses to listen beyond the loopback unless told, and an upstream that is not http', async () => {
    const remote = await runCli(['proxy', 'serve', '--host', '0.0.0.0'], {});
    expect(remote.code).toBe(2);
    expect(remote.err).toContain('--allow-remote');
    const ftp = await runCli(['proxy', 'serve', '--upstream', 'ftp://example.invalid'], {});
    expect(ftp.code).toBe(2);
    expect(ftp.err).toContain('give an http or https URL');
  });
});
