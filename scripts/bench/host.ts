// `npm run bench:host`: how long the host keeps others waiting while it opens a big session. A host
// serves browser mode (`glassbox ui`'s server) on a temporary projects folder holding one large
// transcript of real records; a client in another process asks for that session's window and, while
// it is being made, asks `host:info` every 20 ms, timing each answer. Run with the heavy work inline
// (what every request waited on before: threads 0) and in the host's work threads. Printed, never
// asserted (the goal: host:info answered within 100 ms while any of it runs).
import { spawn } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { createHost, startUiServer } from '@glassbox/host';
import { largeFiles } from './memory';

const ROOT = resolve(import.meta.dirname, '../..');

interface ClientReport {
  openMs: number;
  opened: boolean;
  samples: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/** In the client process: open the big session and time host:info meanwhile. */
async function client(url: string, token: string, path: string): Promise<void> {
  const call = (channel: string, args: unknown): Promise<{ ok: boolean }> =>
    fetch(`${url}/api/invoke/${channel}`, { method: 'POST', headers: { 'x-glassbox-token': token, 'content-type': 'application/json' }, body: JSON.stringify(args) }).then((r) => r.json() as Promise<{ ok: boolean }>);
  const t0 = performance.now();
  let done = false;
  let opened = false;
  // The big answer is not parsed here: parsing megabytes of JSON would stop this process's own loop,
  // and the host:info in flight would be timed as if the host had kept it waiting.
  const open = fetch(`${url}/api/invoke/session:snapshot`, { method: 'POST', headers: { 'x-glassbox-token': token, 'content-type': 'application/json' }, body: JSON.stringify({ path }) })
    .then((r) => r.arrayBuffer())
    .then((body) => {
      opened = Buffer.from(body, 0, 16).toString('latin1').startsWith('{"ok":true');
      done = true;
    });
  const latencies: number[] = [];
  while (!done) {
    const t = performance.now();
    await call('host:info', {});
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  await open;
  const openMs = performance.now() - t0;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const report: ClientReport = { openMs, opened, samples: latencies.length, medianMs: at(0.5), p95Ms: at(0.95), maxMs: latencies.at(-1) ?? 0 };
  console.log(JSON.stringify(report));
}

function run(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', () => done({ stdout, stderr }));
  });
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 300);
  const tmp = join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  const generated = join(ROOT, 'fixtures/corpus/generated');
  const sources = readdirSync(generated)
    .filter((n) => /^\d\d-/.test(n))
    .sort()
    .map((n) => join(generated, n, 'transcript.jsonl'));
  const big = await largeFiles(sources, tmp, 'host')(size);
  const work = mkdtempSync(join(tmpdir(), 'glassbox-bench-host-'));
  try {
    const project = join(work, 'claude', 'projects', '-bench-project');
    mkdirSync(project, { recursive: true });
    const path = join(project, `${randomUUID()}.jsonl`);
    linkSync(big.path, path);
    const env = { ...process.env, CLAUDE_CONFIG_DIR: join(work, 'claude'), GLASSBOX_DATA_DIR: join(work, 'data') };
    console.log(`Host answers while a ${(big.bytes / 1048576).toFixed(0)} MB session opens (browser mode; host:info asked every 20 ms from another process)`);
    for (const threads of [0, 2]) {
      const host = createHost(env, { watch: false, samplesDir: null, work: { threads } }, () => {});
      const server = await startUiServer({ host, staticDir: work });
      try {
        // Not spawnSync: this process is the server, and must go on answering.
        const r = await run(process.execPath, [join(ROOT, 'apps/cli/bin/run-ts.mjs'), fileURLToPath(import.meta.url), '--client', `http://127.0.0.1:${server.port}`, server.token, path]);
        const line = r.stdout.trim().split('\n').pop() ?? '';
        if (!line.startsWith('{')) {
          console.log(`  ${threads === 0 ? 'inline' : `${threads} work threads`}: the client failed: ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
          continue;
        }
        const m = JSON.parse(line) as ClientReport;
        const label = threads === 0 ? 'work inline (before)     ' : `work in ${threads} threads (after)`;
        console.log(
          `  ${label}: opened in ${(m.openMs / 1000).toFixed(1)} s${m.opened ? '' : ' (FAILED)'}; host:info answered ${m.samples} times meanwhile, median ${m.medianMs.toFixed(0)} ms, p95 ${m.p95Ms.toFixed(0)} ms, longest ${m.maxMs.toFixed(0)} ms`,
        );
      } finally {
        await server.close();
        host.close();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--client') await client(process.argv[3] ?? '', process.argv[4] ?? '', process.argv[5] ?? '');
else await main();
