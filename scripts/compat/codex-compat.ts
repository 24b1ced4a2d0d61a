/**
 * `npm run test:compat -- --agent codex [rollout files…]`: compatibility with the real Codex CLI.
 *
 * For every rollout of the generated Codex corpus (fixtures/corpus/codex) and every rollout file
 * given, in a scratch copy of a Codex home: the unchanged analysis plans a cleaning (every class,
 * spent included, nothing protected), the Codex adapter builds the fork (and one that tombstones
 * every successful output a tombstone shortens), its validator must pass, and the codex-harness
 * `fork-check.mjs` resumes original and fork in the real client, offline against a recording mock:
 * the two requests must carry the same items, only with the tombstoned outputs shorter.
 *
 * Needs the harness with its dependencies installed (it pins @openai/codex):
 *   GLASSBOX_CODEX_HARNESS=/path/to/codex-harness npm run test:compat -- --agent codex
 * Codex refuses to resume a session under another model provider than the one recorded: rollouts
 * recorded with the `openai` provider (real sessions) are checked with a copy of the harness whose
 * configuration points that provider at the mock, made in the scratch folder (or the one named by
 * GLASSBOX_CODEX_HARNESS_OPENAI). Without a harness the check is skipped, with the reason.
 * Exit 0 = every fork resumed like its original; 1 = some did not; 2 = bad input.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { analyzeSession, planEviction } from '@glassbox/analysis';
import { codexFormat, forkFileName, newSessionId, type CodexSession } from '@glassbox/adapter-codex';
import { readRolloutFile } from '@glassbox/adapter-codex/node';
import { buildForkFromLines, validateFromLines, type ForkAction } from '@glassbox/core';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { filesUnder, projectAfter } from '../corpus-files';

const REPO = resolve(import.meta.dirname, '../..');
const CORPUS = join(REPO, 'fixtures/corpus/codex');

interface Row {
  session: string;
  fork: string;
  actions: number;
  /** null: no fork to check (nothing to remove, or a file the adapter refuses to fork). */
  ok: boolean | null;
  items: string;
  chars: string;
  note: string;
}

interface Verdict {
  ok?: boolean;
  failures?: string[];
  original?: { input_items?: number | null };
  fork?: { input_items?: number | null };
  chars?: { original: number | null; fork: number | null; reduction_pct: number | null };
  shortened?: unknown[];
  fresh_message_ids_ignored?: number;
}

function providerOf(lines: readonly string[]): string | null {
  try {
    const first = JSON.parse(lines[0] ?? '') as { payload?: { model_provider?: unknown } };
    return typeof first.payload?.model_provider === 'string' ? first.payload.model_provider : null;
  } catch {
    return null;
  }
}

/**
 * A copy of the harness whose Codex configuration uses the `openai` provider pointed at the mock
 * (two lines of lib.mjs: the provider, and an API key for it in Codex's environment). Null, with
 * the reason, when lib.mjs no longer has the lines this copy changes.
 */
function openaiHarness(harness: string, work: string): { dir: string } | { reason: string } {
  const given = process.env['GLASSBOX_CODEX_HARNESS_OPENAI'];
  if (given) return { dir: given };
  const dir = join(work, 'harness-openai');
  if (existsSync(dir)) return { dir };
  const lib = readFileSync(join(harness, 'lib.mjs'), 'utf8');
  const provider = "    'model_provider = \"mock\"',\n";
  const key = "    [API_KEY_VAR]: 'sk-harness-dummy-key-for-local-mock-0000000000000000',\n";
  if (!lib.includes(provider) || !lib.includes(key)) return { reason: `${harness}/lib.mjs is not the version this script knows how to point at the openai provider; set GLASSBOX_CODEX_HARNESS_OPENAI` };
  mkdirSync(dir);
  for (const name of readdirSync(harness)) {
    if (name === 'node_modules' || name === 'out' || name === 'project-template') symlinkSync(join(harness, name), join(dir, name));
    else cpSync(join(harness, name), join(dir, name), { recursive: true });
  }
  const patched = lib
    .replace(provider, "    'model_provider = \"openai\"',\n    `openai_base_url = ${JSON.stringify(`${baseUrl}/v1`)}`,\n")
    .replace(key, `${key}    OPENAI_API_KEY: 'sk-harness-dummy-key-for-local-mock-0000000000000000',\n`);
  writeFileSync(join(dir, 'lib.mjs'), patched);
  return { dir };
}

/** Every successful resident output a short tombstone can replace. */
function everyOutput(session: CodexSession): ForkAction[] {
  const out: ForkAction[] = [];
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    const b = n?.blocks[0];
    if (!n || n.kind !== 'tool-results' || !b || b.isError || !b.toolUseId) continue;
    const tombstone = `[glassbox compat: output removed (${b.bytes} bytes)]`;
    if (Buffer.byteLength(tombstone) >= b.bytes) continue;
    out.push({ uuid: n.uuid, line: n.line, blockIndex: 0, target: 'tool-result', toolUseId: b.toolUseId, tombstone });
  }
  return out;
}

function planned(session: CodexSession, path: string): ForkAction[] {
  const snapshot = analyzeSession(session, nodeAnalysisPorts(), { repoRoot: projectAfter(path, 6), protectTail: 0, withSpent: true });
  return planEviction(snapshot, { classes: ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'], minimumSavings: 0 }).actions;
}

type Item = Record<string, unknown>;

/**
 * fork-check allows the messages Codex adds while resuming to differ in their per-run `id` only.
 * Resuming a 2025 rollout (no `world_state` records), Codex re-sends its context messages with an
 * `internal_chat_message_metadata_passthrough` that carries this run's turn id and creation time as
 * well. When those are the only differences left — on messages whose ids are in neither file — the
 * fork resumed like its original; anything else stays a failure. Returns how many were such messages.
 */
function perRunOnly(out: string, originalText: string, forkText: string): number | null {
  const input = (side: string): Item[] | null => {
    try {
      return (JSON.parse(readFileSync(join(out, `${side}-id`, 'main-request.json'), 'utf8')) as { body: { input: Item[] } }).body.input;
    } catch {
      return null;
    }
  };
  const o = input('original');
  const f = input('fork');
  if (!o || !f || o.length !== f.length) return null;
  const strip = (it: Item): string => {
    const { id: _id, internal_chat_message_metadata_passthrough: meta, ...rest } = it;
    const { turn_id: _t, create_time: _c, ...keep } = (meta ?? {}) as Item;
    return JSON.stringify({ ...rest, meta: keep });
  };
  let messages = 0;
  for (let i = 0; i < o.length; i++) {
    const a = o[i] as Item;
    const b = f[i] as Item;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (a['type'] === 'message' && b['type'] === 'message' && typeof a['id'] === 'string' && typeof b['id'] === 'string' && !originalText.includes(a['id']) && !forkText.includes(b['id']) && strip(a) === strip(b)) {
      messages++;
      continue;
    }
    const isOutput = (it: Item): boolean => it['type'] === 'function_call_output' || it['type'] === 'custom_tool_call_output';
    // Shortened outputs were judged by fork-check itself.
    if (isOutput(a) && isOutput(b) && a['call_id'] === b['call_id']) continue;
    return null;
  }
  return messages;
}

function linesOf(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function runCodexCompat(given: readonly string[]): number {
  const harness = process.env['GLASSBOX_CODEX_HARNESS'];
  const skip = (reason: string): number => {
    console.log(`test:compat --agent codex skipped: ${reason}`);
    return 0;
  };
  if (!harness) return skip('set GLASSBOX_CODEX_HARNESS to the codex-harness folder with `npm install` done (see scripts/compat/codex-compat.ts)');
  if (!existsSync(join(harness, 'fork-check.mjs'))) return skip(`${harness} has no fork-check.mjs`);
  const codex = process.env['CODEX_BIN'] ?? join(harness, 'node_modules', '.bin', 'codex');
  if (!existsSync(codex)) return skip(`no codex binary (${codex}); run npm install in ${harness} or set CODEX_BIN`);
  for (const f of given) {
    if (!existsSync(f) || !statSync(f).isFile()) {
      console.error(`test:compat: ${f}: no such file`);
      return 2;
    }
  }
  const files = [...filesUnder(CORPUS, ['project-after'], (name) => /^rollout-.*\.jsonl$/.test(name)), ...given.map((f) => resolve(f))];
  const work = mkdtempSync(join(tmpdir(), 'glassbox-codex-compat-'));
  const rows: Row[] = [];
  files.forEach((file, k) => {
    const label = `${k + 1}-${basename(file, '.jsonl').slice(-12)}`;
    // A scratch Codex home laid out as Codex writes it: the fork goes beside the original.
    const day = join(work, label, 'home', 'sessions', 'day');
    mkdirSync(day, { recursive: true });
    const source = join(day, basename(file));
    copyFileSync(file, source);
    const lines = linesOf(source);
    const session = readRolloutFile(source);
    const name = session.historyBase ? `${basename(file)} (codex exec fork)` : basename(file);
    const error = session.problems.find((p) => p.severity === 'error');
    if (error) {
      rows.push({ session: name, fork: '-', actions: 0, ok: false, items: '', chars: '', note: `not read: ${error.message}` });
      return;
    }
    const provider = providerOf(lines);
    let checker = harness;
    if (provider !== null && provider !== 'mock') {
      const h = openaiHarness(harness, work);
      if ('reason' in h) {
        rows.push({ session: name, fork: '-', actions: 0, ok: false, items: '', chars: '', note: h.reason });
        return;
      }
      checker = h.dir;
    }
    const plans: [string, ForkAction[]][] = [
      ['planner', planned(session, file)],
      ['every output', everyOutput(session)],
    ];
    for (const [kind, actions] of plans) {
      const id = newSessionId();
      const fork = buildForkFromLines(codexFormat.createForkBuilder(actions, id), lines);
      if (fork.applied.length === 0) {
        const why = fork.refused.find((r) => r.code === 'file_refused')?.message;
        rows.push({ session: name, fork: kind, actions: 0, ok: null, items: '', chars: '', note: why ? `not forked: ${why.slice(0, 110)}` : 'no fork: nothing to remove' });
        continue;
      }
      const report = validateFromLines(codexFormat.createForkValidator({ actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines }), lines, fork.lines);
      if (!report.ok) {
        rows.push({ session: name, fork: kind, actions: fork.applied.length, ok: false, items: '', chars: '', note: `refused by the validator: ${report.checks.filter((c) => !c.ok).map((c) => c.id).join(', ')}` });
        continue;
      }
      const forkPath = join(day, forkFileName(basename(source), id) ?? `rollout-fork-${id}.jsonl`);
      writeFileSync(forkPath, fork.lines.join('\n') + '\n', { flag: 'wx' });
      const out = join(work, label, `check-${kind.replace(/\W+/g, '-')}`);
      const run = spawnSync(process.execPath, [join(checker, 'fork-check.mjs'), '--original', source, '--fork', forkPath, '--out', out], {
        encoding: 'utf8',
        env: { ...process.env, CODEX_BIN: codex },
        timeout: 600_000,
      });
      let verdict: Verdict;
      try {
        verdict = JSON.parse(run.stdout) as Verdict;
      } catch {
        verdict = { ok: false, failures: [`fork-check printed no verdict (exit ${run.status}): ${run.stderr.slice(0, 200)}`] };
      }
      const failures = verdict.failures ?? [];
      const onlyUnexpected = failures.length === 1 && /unexpected difference/.test(failures[0] as string);
      const perRun = !verdict.ok && onlyUnexpected ? perRunOnly(out, lines.join('\n'), fork.lines.join('\n')) : null;
      const ok = (run.status === 0 && verdict.ok === true) || perRun !== null;
      const shortened = `${verdict.shortened?.length ?? 0} outputs shorter, nothing else differs`;
      rows.push({
        session: name,
        fork: kind,
        actions: fork.applied.length,
        ok,
        items: `${verdict.original?.input_items ?? '?'} / ${verdict.fork?.input_items ?? '?'}`,
        chars: verdict.chars ? `${verdict.chars.original} → ${verdict.chars.fork} (−${verdict.chars.reduction_pct}%)` : '',
        note: !ok
          ? failures.join('; ').slice(0, 200)
          : `${shortened}${perRun ? ` but the per-run ids, turn ids and times of the ${perRun} messages Codex added on resume` : ''}${provider && provider !== 'mock' ? ` (provider ${provider})` : ''}`,
      });
    }
  });

  const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  console.log(`Codex: ${spawnSync(codex, ['--version'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: work, CODEX_HOME: work } }).stdout.trim()}`);
  console.log(`${pad('rollout', 64)} ${pad('fork', 13)} ${pad('actions', 7)} ${pad('result', 6)} ${pad('items', 9)} ${pad('request chars', 30)} note`);
  for (const r of rows) {
    console.log(`${pad(r.session, 64)} ${pad(r.fork, 13)} ${pad(String(r.actions), 7)} ${pad(r.ok === null ? '-' : r.ok ? 'ok' : 'FAIL', 6)} ${pad(r.items, 9)} ${pad(r.chars, 30)} ${r.note}`);
  }
  const checked = rows.filter((r) => r.ok !== null);
  const passed = checked.filter((r) => r.ok === true).length;
  console.log(`\n${passed}/${checked.length} forks resumed by the real Codex client like their originals`);
  if (!process.env['GLASSBOX_COMPAT_KEEP']) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
  return passed === checked.length ? 0 : 1;
}
