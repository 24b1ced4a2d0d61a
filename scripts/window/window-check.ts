/**
 * Opt-in check of the resident window against the real Claude Code (`npm run test:window -- [transcripts…]`).
 *
 * For each transcript (default: every fixture), the cc-harness resumes it with the real client offline
 * and captures the request; Glassbox reconstructs its window for the same transcript, and the two are
 * compared: tool results in both / only Glassbox / only the request, text and reasoning on one side
 * only, and the ratio of bytes outside tool results. `--record` also stores each fixture's request as
 * `resume-request.json` (messages without cache markers, and the model) for the offline unit tests.
 *
 *   GLASSBOX_CC_HARNESS=/path/to/cc-harness npm run test:window [-- --record] [-- --model M] [-- file.jsonl …]
 * The window is drawn for the client version the harness runs (its rules decide the model and what
 * is sent). `--model M` resumes on that model (needs a harness whose resume-probe passes `--model`)
 * and records `resume-request.<M>.json`.
 * Without GLASSBOX_CC_HARNESS the check is skipped, with the reason. Exit 1 when the window holds an
 * item the request lacks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSessionFile } from '@glassbox/adapter-claude-code/node';
import { compareWindowWithRequest, requestItems, windowItems, type WindowComparison } from '@glassbox/adapter-claude-code';
import { SENT_KINDS, applyRequestView, reconstructWindow } from '@glassbox/analysis';
import { recordRequest, requestPathFor, type RecordedRequest } from './recorded';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CORPUS = join(REPO, 'fixtures/corpus');
const PROMPT = 'reply ok';

function skip(reason: string): never {
  console.log(`test:window skipped: ${reason}`);
  process.exit(0);
}

/** Every Claude Code transcript among the fixtures: generated sessions and the public ones. */
function fixtureTranscripts(): string[] {
  const out: string[] = [];
  const gen = join(CORPUS, 'generated');
  for (const name of readdirSync(gen).filter((n) => /^\d\d-/.test(n)).sort()) {
    const dir = join(gen, name, 'claude-project');
    const file = readdirSync(dir).find((f) => f.endsWith('.jsonl'));
    const manifest = JSON.parse(readFileSync(join(gen, name, 'manifest.json'), 'utf8')) as { session_ids: string[] };
    const main = manifest.session_ids[0];
    out.push(join(dir, main && existsSync(join(dir, `${main}.jsonl`)) ? `${main}.jsonl` : (file ?? '')));
  }
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.jsonl') && !p.includes('MoonMind')) out.push(p);
    }
  };
  walk(join(CORPUS, 'public'));
  return out;
}

const args = process.argv.slice(2);
const record = args.includes('--record');
const modelAt = args.indexOf('--model');
const model = modelAt >= 0 ? args[modelAt + 1] : undefined;
const files = args.filter((a, i) => !a.startsWith('--') && i !== modelAt + 1).map((a) => resolve(a));
const harness = process.env['GLASSBOX_CC_HARNESS'];
if (!harness) skip('set GLASSBOX_CC_HARNESS to a copy of cc-harness with `npm install` done (see scripts/window/window-check.ts)');
if (!existsSync(join(harness, 'resume-probe.mjs'))) skip(`${harness} has no resume-probe.mjs`);
const claude = process.env['CLAUDE_BIN'] ?? join(harness, 'node_modules', '.bin', 'claude');
if (!existsSync(claude)) skip(`no claude binary (${claude}); run npm install in ${harness} or set CLAUDE_BIN`);
const client = /(\d+\.\d+\.\d+)/.exec(spawnSync(claude, ['--version'], { encoding: 'utf8' }).stdout)?.[1];
if (!client) skip(`${claude} --version names no version`);

interface Row {
  file: string;
  models: string;
  comparison: WindowComparison | null;
  note: string;
}

function capture(file: string, out: string, label: string): RecordedRequest | string {
  const run = spawnSync(process.execPath, [join(harness as string, 'resume-probe.mjs'), file, '--mode', 'resume', '--prompt', PROMPT, '--out', out, '--label', label, ...(model ? ['--model', model] : [])], {
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_BIN: claude },
    timeout: 300_000,
  });
  const saved = join(out, `${label}-resume`, 'main-request.json');
  if (!existsSync(saved)) return `no request captured (exit ${run.status}): ${(run.stderr || run.stdout).slice(-200)}`;
  const body = (JSON.parse(readFileSync(saved, 'utf8')) as { body: { model: string; messages: unknown[] } }).body;
  if (model && body.model !== model) return `the request used ${body.model}, not ${model}: does this harness's resume-probe pass --model?`;
  return recordRequest(body, client as string);
}

const rows: Row[] = [];
const work = mkdtempSync(join(tmpdir(), 'glassbox-window-'));
const targets = files.length > 0 ? files : fixtureTranscripts();
targets.forEach((file, i) => {
  const name = relative(CORPUS, file).startsWith('..') ? file : relative(CORPUS, file);
  const captured = capture(file, work, `t${i}`);
  if (typeof captured === 'string') {
    rows.push({ file: name, models: '', comparison: null, note: captured });
    return;
  }
  if (record && !relative(CORPUS, file).startsWith('..')) recordRequestFile(file, captured);
  const { session } = readSessionFile(file);
  const window = reconstructWindow(session);
  applyRequestView(session, window, model ? { now: new Date(), client: client as string, model } : { now: new Date(), client: client as string });
  const lines = readFileSync(file, 'utf8').split('\n');
  const items = windowItems(window.nodes, (n, b) => !window.excludedBlocks.has(`${n.uuid}:${b.index}`), (n) => lines[n.line - 1] ?? '{}', SENT_KINDS, window.joinedReminderOverhead);
  const comparison = compareWindowWithRequest(items, requestItems(captured.messages, PROMPT));
  const same = window.model.model === captured.model;
  rows.push({ file: name, models: same ? captured.model : `${window.model.model} ≠ ${captured.model}`, comparison, note: '' });
});
rmSync(work, { recursive: true, force: true });
console.log(`Claude Code ${client}${model ? `, resumed with --model ${model}` : ''}`);

function recordRequestFile(file: string, req: RecordedRequest): void {
  const target = requestPathFor(file, CORPUS, model);
  writeFileSync(target, JSON.stringify(req, null, 1) + '\n');
  console.log(`recorded ${relative(REPO, target)}`);
}

const pad = (s: string, n: number): string => (s.length >= n ? s.slice(0, n) : s + ' '.repeat(n - s.length));
console.log(`${pad('transcript', 58)} ${pad('results both/G/R', 16)} ${pad('text G/R', 9)} ${pad('think G/R', 9)} ${pad('non-result bytes G/R', 24)} model`);
let bad = 0;
for (const r of rows) {
  const c = r.comparison;
  if (!c) {
    console.log(`${pad(r.file, 58)} ${r.note}`);
    bad++;
    continue;
  }
  const extra = c.results.onlyGlassbox.length + c.calls.onlyGlassbox.length + c.textOnlyGlassbox.length + c.thinkingOnlyGlassbox.length;
  if (extra > 0) bad++;
  const b = c.nonResultBytes;
  console.log(
    `${pad(r.file, 58)} ${pad(`${c.results.both}/${c.results.onlyGlassbox.length}/${c.results.onlyRequest.length}`, 16)} ` +
      `${pad(`${c.textOnlyGlassbox.length}/${c.textOnlyRequest.length}`, 9)} ${pad(`${c.thinkingOnlyGlassbox.length}/${c.thinkingOnlyRequest.length}`, 9)} ` +
      `${pad(`${b.glassbox}/${b.request} (${b.ratio.toFixed(3)})`, 24)} ${r.models}`,
  );
  for (const t of [...c.textOnlyGlassbox, ...c.thinkingOnlyGlassbox.map((t) => `thinking ${t}`), ...c.results.onlyGlassbox.map((id) => `result ${id}`)]) {
    console.log(`    only Glassbox: ${t}`);
  }
  if (process.env['GLASSBOX_WINDOW_VERBOSE']) for (const t of [...c.textOnlyRequest, ...c.thinkingOnlyRequest]) console.log(`    only request: ${t}`);
}
console.log(`\n${rows.length} transcripts; ${bad} with an item the request lacks or no request`);
process.exit(bad > 0 ? 1 : 0);
