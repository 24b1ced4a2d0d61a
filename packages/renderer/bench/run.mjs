/* global window, document, CSS, MutationObserver -- the functions passed to page.evaluate run in the browser. */
// npm run bench:ui — prints (1) how long the treemap takes to lay out and to draw 1,000, 10,000 and
// 50,000 segments in Chromium, and how long a hover and a selection take to reach the screen; (2) the
// session list at 10,000 sessions: first paint, frame times while scrolling, keystroke to filtered list;
// (3) how long an append to a session file takes to reach the screen (file written → watcher → index →
// push event → row re-rendered). Figures only; nothing is asserted. BENCH_ONLY=treemap,list,append
// runs a subset.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(pkg, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SIZES = process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(',').map(Number) : [1000, 10000, 50000];
const RUNS = 5;
const APPENDS = 8;
const LIST_SESSIONS = Number(process.env.BENCH_LIST ?? 10000);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'treemap,list,append').split(','));

await build({ configFile: join(pkg, 'bench/vite.config.ts'), logLevel: 'warn' });
await build({ configFile: join(pkg, 'vite.config.ts'), logLevel: 'warn' });

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
try {
  if (ONLY.has('treemap') || ONLY.has('list')) await pageBench();
  if (ONLY.has('append')) await appendBench();
} finally {
  await browser.close();
}

async function pageBench() {
  const root = join(pkg, 'dist/bench');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer((req, res) => {
    const file = normalize(join(root, req.url === '/' ? 'index.html' : decodeURIComponent(req.url.split('?')[0].slice(1))));
    if (!file.startsWith(root) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => typeof window.runBench === 'function' && typeof window.runListBench === 'function');
  if (ONLY.has('treemap')) {
    const results = await page.evaluate(([sizes, runs]) => window.runBench(sizes, runs), [SIZES, RUNS]);
    console.log(`Treemap, 1000×620 px, Chromium ${browser.version()} (median of ${RUNS}); draw = the rest of a synchronous redraw (React commit, canvas, style and layout), layout excluded`);
    for (const r of results) {
      console.log(`treemap ${r.segments} segments: layout ${r.layoutMs.toFixed(1)} ms, draw ${r.drawMs.toFixed(1)} ms (total ${(r.layoutMs + r.drawMs).toFixed(1)} ms, ${r.tiles} tiles, ${r.elements} of them elements)`);
      console.log(`  same run, the earlier d3-hierarchy layout: ${r.d3Ms.toFixed(1)} ms (${(r.d3Ms / Math.max(0.1, r.layoutMs)).toFixed(1)}× the layout's time)`);
      if (r.hover) console.log(`  hover frame: median ${r.hover.median.toFixed(1)} ms, max ${r.hover.max.toFixed(1)} ms; select frame: median ${r.select.median.toFixed(1)} ms, max ${r.select.max.toFixed(1)} ms`);
    }
  }
  if (ONLY.has('list')) {
    const l = await page.evaluate((count) => window.runListBench(count), LIST_SESSIONS);
    const f = (x) => `median ${x.median.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms, max ${x.max.toFixed(1)} ms`;
    console.log(`\nSession list, 300×700 px`);
    console.log(`list ${l.sessions} sessions: first paint ${l.firstMs.toFixed(1)} ms, ${l.rowsInDom} rows in the DOM`);
    console.log(`list scroll frame times at ${l.sessions} sessions: ${f(l.scroll)} over ${l.scroll.frames} frames`);
    console.log(`  same run, idle frames: ${f(l.idle)} (the machine's own frame time)`);
    console.log(`list filter (keystroke → painted) at ${l.sessions} sessions: ${f(l.filter)}`);
  }
  await page.close();
  server.close();
}

async function appendBench() {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-bench-ui-'));
  try {
    const m = JSON.parse(readFileSync(join(repo, 'fixtures/corpus/generated/05-autocompact/manifest.json'), 'utf8'));
    const projects = join(dir, 'claude/projects');
    cpSync(join(repo, 'fixtures/corpus/generated/05-autocompact/claude-project'), join(projects, m.project_slug), { recursive: true });
    const session = join(projects, m.project_slug, `${m.session_ids[0]}.jsonl`);
    const child = spawn(process.execPath, [join(repo, 'apps/cli/bin/glassbox.mjs'), 'ui', '--no-open'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), GLASSBOX_DATA_DIR: join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const url = await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    const row = page.locator(`[data-testid=session-row][data-path="${session}"]`);
    await row.waitFor();
    await row.click();
    await page.getByTestId('treemap').locator('.tm-tile').first().waitFor();
    const last = readFileSync(session, 'utf8').trimEnd().split('\n').pop();
    const rowMs = [];
    const viewMs = [];
    for (let i = 0; i < APPENDS; i++) {
      const before = readFileSync(session).length;
      await page.evaluate((p) => {
        window.__seen = {};
        const bytes = () => document.querySelector(`[data-testid=session-row][data-path="${CSS.escape(p.path)}"]`)?.getAttribute('data-bytes');
        const obs = new MutationObserver(() => {
          if (bytes() === String(p.size) && !window.__seen.row) {
            window.__seen.row = Date.now();
            obs.disconnect();
          }
        });
        obs.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-bytes'] });
      }, { path: session, size: before + Buffer.byteLength(`${last}\n`) });
      // The open window is re-analysed too: time until its new snapshot has arrived.
      const snapshotArrived = page
        .waitForResponse((r) => decodeURIComponent(r.url()).includes('session:snapshot'), { timeout: 15_000 })
        .then((r) => r.finished())
        .then(() => Date.now())
        .catch(() => NaN);
      const t0 = Date.now();
      appendFileSync(session, `${last}\n`);
      await page.waitForFunction(() => window.__seen.row !== undefined, null, { timeout: 15_000 }).catch(async (e) => {
        console.error('row text now:', await row.textContent(), 'file bytes', readFileSync(session).length, 'was', before);
        throw e;
      });
      const seen = await page.evaluate(() => window.__seen.row);
      rowMs.push(seen - t0);
      viewMs.push((await snapshotArrived) - t0);
      await page.waitForTimeout(400);
    }
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`\nAppend → screen (glassbox ui, ${APPENDS} appends of one record to a ${Math.round(readFileSync(session).length / 1024)} KB session)`);
    console.log(`  row updated:          median ${med(rowMs)} ms, max ${Math.max(...rowMs)} ms   (includes the watcher's 150 ms debounce)`);
    console.log(`  open window re-read:  median ${med(viewMs)} ms, max ${Math.max(...viewMs)} ms   (re-parse and re-analysis of the whole session)`);
    await page.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
