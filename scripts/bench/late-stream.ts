// `npm run bench:late-stream [-- [--hold] starts [parallel [loadMs]]]`: does a window ever stay behind its host? Starts
// `glassbox ui` on three seeded sessions, again and again, and behaves like the page: its first list
// when the page would have loaded (0–loadMs after the URL, 1500 by default), its event stream 0–60 ms later (the gap measured in Chromium between the two requests),
// then what the page does with each frame (index progress, the host's state first on the stream: a
// newer list version reloads the list). A start is "stuck" when the host has finished indexing and,
// two seconds on, this client still shows indexing. Printed, never asserted.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '../..');
const GENERATED = join(ROOT, 'fixtures/corpus/generated');
const SCENARIOS = ['01-superseded-reads', '02-gone-drift-errors', '05-autocompact'];

interface Progress {
  phase: string;
  done: number;
  total: number;
  version?: number;
}
interface Sync {
  progress: Progress;
  version: number;
}

function seed(dir: string): string {
  const projects = join(dir, 'claude', 'projects');
  for (const name of SCENARIOS) {
    const m = JSON.parse(readFileSync(join(GENERATED, name, 'manifest.json'), 'utf8')) as { project_slug: string };
    cpSync(join(GENERATED, name, 'claude-project'), join(projects, m.project_slug), { recursive: true });
  }
  return join(dir, 'claude');
}

/** One start: true when the client was left showing indexing after the host had finished. */
async function oneStart(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-late-'));
  const child = spawn(process.execPath, [join(ROOT, 'apps/cli/bin/glassbox.mjs'), 'ui', '--no-open'], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: seed(dir), CODEX_HOME: join(dir, 'codex'), GLASSBOX_DATA_DIR: join(dir, 'data'), GLASSBOX_SAMPLES_DIR: join(dir, 'none') },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const url = new URL(await new Promise<string>((r) => createInterface({ input: child.stdout }).once('line', (l) => r(l.trim()))));
    const token = url.searchParams.get('token') ?? '';
    const headers = { 'x-glassbox-token': token, 'content-type': 'application/json' };
    const list = async (): Promise<{ progress: Progress; version?: number }> =>
      ((await (await fetch(`${url.origin}/api/invoke/sessions:list`, { method: 'POST', headers, body: '{}' })).json()) as { value: { progress: Progress; version?: number } }).value;
    // The page asks once it has loaded: anywhere in the first `loadMs` after the URL was printed.
    await new Promise((r) => setTimeout(r, Math.random() * loadMs));
    // The page's state: what it was last told, never older over newer.
    let shown: Progress = (await list()).progress;
    let listVersion = -1;
    const apply = (p: Progress) => {
      if ((p.version ?? 0) >= (shown.version ?? 0)) shown = p;
    };
    if (hold) {
      // The deterministic case: the stream opens only once the host has finished.
      while ((await list()).progress.phase !== 'done') await new Promise((r) => setTimeout(r, 20));
    } else await new Promise((r) => setTimeout(r, Math.random() * 60));
    const controller = new AbortController();
    const stream = fetch(`${url.origin}/api/events`, { headers, signal: controller.signal }).then(async (res) => {
      const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += value;
        for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
          const m = /^event: (.*)\ndata: (.*)$/s.exec(buf.slice(0, end));
          buf = buf.slice(end + 2);
          if (m?.[1] === 'index:progress') apply(JSON.parse(m[2] as string) as Progress);
          if (m?.[1] === 'host:sync') {
            const s = JSON.parse(m[2] as string) as Sync;
            apply(s.progress);
            if (s.version > listVersion) {
              listVersion = s.version;
              apply((await list()).progress);
            }
          }
        }
      }
    });
    stream.catch(() => undefined);
    // The host's own word, asked on the side until it has finished.
    for (let i = 0; i < 300 && (await list()).progress.phase !== 'done'; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 2000));
    controller.abort();
    return shown.phase !== 'done';
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2).filter((a) => a !== '--hold');
/** Hold every stream until the host has finished indexing (a late stream every time), instead of 0–60 ms after the list. */
const hold = process.argv.includes('--hold');
const starts = Number(args[0] ?? 50);
const parallel = Number(args[1] ?? 1);
/** How long after the URL the page's first list may come (a page loading its bundle and styles). */
const loadMs = Number(args[2] ?? 1500);
let stuck = 0;
for (let i = 0; i < starts; i += parallel) {
  const n = Math.min(parallel, starts - i);
  const results = await Promise.all(Array.from({ length: n }, () => oneStart()));
  stuck += results.filter(Boolean).length;
}
console.log(`late stream: stuck in ${stuck} of ${starts} starts (${parallel} at once, first list 0–${loadMs} ms after the URL, stream ${hold ? 'held until the host finished' : '0–60 ms after the list'})`);
