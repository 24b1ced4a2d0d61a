/**
 * `npm run test:compat -- --agent codex [rollout files…]`: compatibility with the real Codex CLI.
 *
 * For every rollout of the generated Codex corpus (fixtures/corpus/codex) and every rollout file
 * given, in a scratch Codex home with the original in the date folder of its name: `glassbox clean
 * --fork --json` writes the planner's fork (every class, spent included, nothing protected) and the
 * store's writer one that tombstones every successful output a tombstone shortens, both where and as
 * Glassbox names them (docs/codex/format.md); the printed `codex resume <id>` must name the id of the
 * fork's file name and session_meta; then the codex-harness `fork-check.mjs --keep-name` installs
 * original and fork under their own names and date folders and resumes both by id in the real
 * client, offline against a recording mock: the two requests must carry the same items, only with
 * the tombstoned outputs shorter.
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
import { basename, dirname, join, resolve } from 'node:path';
import { codexFormat, type CodexSession } from '@glassbox/adapter-codex';
import { readRolloutFile } from '@glassbox/adapter-codex/node';
import type { ForkAction } from '@glassbox/core';
import { resumeInstruction, writeFork } from '@glassbox/store/fork';
import { filesUnder, projectAfter } from '../corpus-files';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

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

type Written = { forkPath: string; resumeCommand: string; actions: number } | { skip: string; failed?: boolean };

/** `glassbox clean <source> --fork --json`, run as a user runs it (every class, spent included, nothing protected). */
function cleanFork(source: string, file: string, home: string, archive: string, elide = false): Written {
  // Not --with-spent for the elided fork: spent claims a large one-shot output first, and a segment keeps its first class.
  const args = [join(REPO, 'apps/cli/bin/glassbox.mjs'), 'clean', source, '--fork', '--json', '--protect', '0', ...(elide ? [] : ['--with-spent']), '--min-savings', '0', '--archive', archive];
  // The elided fork: the proven classes and elision together (over a threshold the small fixtures reach), so one fork carries tombstones and elisions.
  const classes = elide ? 'gone,stale-drift,stale-superseded,duplicate,elided' : 'gone,stale-drift,stale-superseded,duplicate,spent';
  args.push('--classes', classes, '--repo', projectAfter(file, 6) ?? dirname(source));
  if (elide) args.push('--elide-over', '120', '--elide-keep', '200');
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, CODEX_HOME: home, HOME: dirname(home) }, timeout: 600_000 });
  let out: { status?: string; forkPath?: string; resumeCommand?: string | null; validation?: { checks?: { id: string; ok: boolean }[] }; plan?: { actions?: unknown[] } };
  try {
    out = JSON.parse(run.stdout) as typeof out;
  } catch {
    return { skip: `glassbox clean --fork printed no JSON (exit ${run.status}): ${(run.stderr || run.stdout).trim().slice(0, 140)}`, failed: !/refuse|nothing|exec fork/i.test(run.stderr) };
  }
  if (out.status === 'nothing-to-do') return { skip: 'no fork: nothing to remove' };
  if (out.status === 'refused') return { skip: `refused by the validator: ${(out.validation?.checks ?? []).filter((c) => !c.ok).map((c) => c.id).join(', ')}`, failed: true };
  if (out.status !== 'written' || !out.forkPath || !out.resumeCommand) return { skip: `glassbox clean --fork: ${out.status ?? '?'}`, failed: true };
  return { forkPath: out.forkPath, resumeCommand: out.resumeCommand, actions: linesOf(out.forkPath).length === 0 ? 0 : countTombstones(source, out.forkPath) };
}

/** The same writer with other actions (every output a tombstone shortens), and the command the CLI would print. */
function writtenFork(source: string, actions: ForkAction[], archive: string): Written {
  if (actions.length === 0) return { skip: 'no fork: nothing to remove' };
  try {
    const r = writeFork({ agents: TEST_AGENTS, sourcePath: source, archiveDir: archive, prepare: () => ({ actions }) });
    if (r.status !== 'written') return { skip: `refused by the validator: ${r.report.checks.filter((c) => !c.ok).map((c) => c.id).join(', ')}`, failed: true };
    const cwd = readRolloutFile(source).cwd;
    const command = resumeInstruction({ cwd, mapped: null, sessionId: r.forkId, sessionPath: r.forkPath, format: codexFormat, isDir: () => true }).command ?? '';
    return { forkPath: r.forkPath, resumeCommand: command, actions: r.applied.length };
  } catch (error) {
    const message = (error as Error).message;
    return { skip: `not forked: ${message.slice(0, 110)}`, failed: !/nothing|exec fork|refus/i.test(message) };
  }
}

/** Lines that differ between original and fork: the tombstoned outputs. */
function countTombstones(source: string, forkPath: string): number {
  const a = linesOf(source);
  const b = linesOf(forkPath);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && (a[i] ?? '').length !== (b[i] ?? '').length) n++;
  return n;
}

/**
 * Why the printed command would not find the fork, or null: Codex looks `codex resume <id>` up by the
 * id in rollout file names (rollout-<time>-<id>.jsonl in a sessions/YYYY/MM/DD folder), and the
 * thread it resumes is the file's session_meta.id.
 */
function printedIdProblem(forkPath: string, command: string): string | null {
  const id = /codex resume (\S+)$/.exec(command)?.[1];
  if (!id) return `the printed command is not codex resume <id>: ${command}`;
  const m = /\/sessions\/\d{4}\/\d{2}\/\d{2}\/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-([0-9a-f-]{36})\.jsonl$/.exec(forkPath);
  if (!m) return `${basename(forkPath)} is not named as Codex names sessions (sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl)`;
  if (m[1] !== id) return `the printed id ${id} is not the one in the file name (${m[1]})`;
  const meta = (JSON.parse(linesOf(forkPath)[0] ?? '{}') as { payload?: { id?: string } }).payload?.id;
  if (meta !== id) return `the printed id ${id} is not the file's session_meta.id (${meta})`;
  return null;
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
  const resumed: string[] = [];
  files.forEach((file, k) => {
    const label = `${k + 1}-${basename(file, '.jsonl').slice(-12)}`;
    // A scratch Codex home laid out as Codex writes it: the original in the date folder of its name.
    const home = join(work, label, 'home');
    const date = /^rollout-(\d{4})-(\d{2})-(\d{2})T/.exec(basename(file));
    const day = date ? join(home, 'sessions', date[1] as string, date[2] as string, date[3] as string) : join(home, 'sessions', '2026', '01', '01');
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
    if (session.historyBase) {
      rows.push({ session: name, fork: '-', actions: 0, ok: null, items: '', chars: '', note: 'not forked: a `codex exec fork` file resumes through its parent file, and Glassbox refuses to fork it alone' });
      return;
    }
    const plans: [string, ForkAction[] | 'cli'][] = [
      ['planner', 'cli'],
      ['elided', 'cli'],
      ['every output', everyOutput(session)],
    ];
    for (const [kind, actions] of plans) {
      // Written as a user gets it: the planner's fork by `glassbox clean --fork` itself, the other by
      // the same writer; both where and as Glassbox names them, in the scratch home's date folder.
      const written = actions === 'cli' ? cleanFork(source, file, home, join(work, label, 'archive'), kind === 'elided') : writtenFork(source, actions as ForkAction[], join(work, label, 'archive'));
      if ('skip' in written) {
        rows.push({ session: name, fork: kind, actions: 0, ok: written.failed ? false : null, items: '', chars: '', note: written.skip });
        continue;
      }
      const { forkPath, resumeCommand, actions: applied } = written;
      const named = printedIdProblem(forkPath, resumeCommand);
      if (named) {
        rows.push({ session: name, fork: kind, actions: applied, ok: false, items: '', chars: '', note: named });
        continue;
      }
      resumed.push(`${resumeCommand}  (${forkPath.slice(home.length + 1)})`);
      const fork = { lines: linesOf(forkPath), applied: { length: applied } };
      const out = join(work, label, `check-${kind.replace(/\W+/g, '-')}`);
      // --keep-name: both files installed under their own names and date folders, as the user has them;
      // Codex is asked for the fork by the id the printed command names (checked above to be the file's).
      const run = spawnSync(process.execPath, [join(checker, 'fork-check.mjs'), '--keep-name', '--original', source, '--fork', forkPath, '--out', out], {
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
      const elisions = fork.lines.filter((l) => l.includes(' elided by glassbox — recall ')).length;
      const shortened = `${verdict.shortened?.length ?? 0} outputs shorter${kind === 'elided' ? ` (${elisions} elided, ${applied - elisions} tombstoned)` : ''}, nothing else differs`;
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
  console.log('\nThe resume commands Glassbox printed, with the files as it named them:');
  for (const r of resumed) console.log(`  ${r}`);
  console.log(`\n${passed}/${checked.length} forks resumed by the real Codex client, by the printed \`codex resume <id>\` with the names as written, like their originals`);
  const elided = checked.filter((r) => r.fork === 'elided' && /\([1-9]\d* elided/.test(r.note) || (r.fork === 'elided' && r.ok === false));
  console.log(`of them with elisions (tombstones and elisions in one fork): ${elided.filter((r) => r.ok === true).length}/${elided.length}`);
  if (!process.env['GLASSBOX_COMPAT_KEEP']) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
  return passed === checked.length ? 0 : 1;
}
