/**
 * `npm run test:compat -- --agent gemini [--only <scenario>/v<version>,…]`: compatibility with the real
 * Gemini CLI.
 *
 * For every run of the generated Gemini corpus (fixtures/corpus/gemini/<scenario>/v<version>), in a
 * scratch copy of the run's project folder (`~/.gemini/tmp/<project>/`, with its saved tool outputs
 * and subagent chats): the store's writer writes the planner's fork of the main chat (every class,
 * nothing protected) — or, for a chat with nothing provably dead, one that tombstones its largest
 * output — beside it, as Glassbox names it (docs/gemini/format.md). The fork must carry every saved
 * output it names (`tool-outputs/session-<fork id>/`, the same bytes as the original's) and its
 * subagents' chats (`chats/<fork id>/`). Then the harness's `fork-check.mjs` resumes original and fork
 * by their ids in the real client of the version that wrote the chat, offline against a recording
 * mock: both must resume, be listed, and send the same request, only with the tombstoned outputs
 * shorter (and saved outputs' paths naming the fork's copies); the original's bytes never change.
 *
 * Needs tools/gemini-harness with `npm install` done (it pins the three CLIs), or GLASSBOX_GEMINI_HARNESS
 * naming a copy; without it the check is skipped, with the reason. Exit 0 = every fork resumed like its
 * original; 1 = some did not.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { geminiLocator } from '@glassbox/adapter-gemini/node';
import type { ForkAction } from '@glassbox/core';
import { ForkError, planFromFile, resumeInstruction, writeFork } from '@glassbox/store/fork';
import { agentForFile } from '@glassbox/file-io';
import { defaultAgents } from '@glassbox/agents';

const TEST_AGENTS = defaultAgents();
const REPO = resolve(import.meta.dirname, '../..');
const CORPUS = join(REPO, 'fixtures/corpus/gemini');

interface RunManifest {
  cli: string;
  cwd: string;
  projectFolder: string;
  sessions: { file: string; sessionId: string; kind: string | null; messages: number; resumable: boolean }[];
}

interface Verdict {
  equivalent?: boolean;
  problems?: string[];
  shortened?: unknown[];
  outputPathsRenamed?: number;
  listed?: string[];
}

interface Row {
  run: string;
  fork: string;
  actions: number;
  ok: boolean | null;
  carried: string;
  note: string;
}

/** The largest successful output of the chat, tombstoned: a fork for a chat with nothing provably dead. */
function largestOutput(path: string): ForkAction[] {
  const s = geminiLocator.parseFile(path);
  let best: ForkAction | null = null;
  let bytes = 0;
  for (const u of s.order) {
    const n = s.nodes.get(u);
    if (!n || n.kind !== 'tool-results') continue;
    n.blocks.forEach((b, i) => {
      const tombstone = `[glassbox compat: output removed (${b.bytes} bytes)]`;
      if (b.isError || !b.toolUseId || b.bytes <= bytes || Buffer.byteLength(tombstone) >= b.bytes) return;
      bytes = b.bytes;
      best = { uuid: n.uuid, line: n.line, blockIndex: i, target: 'tool-result', toolUseId: b.toolUseId, tombstone };
    });
  }
  return best ? [best] : [];
}

/** Every saved output the fork names is there, with the original's bytes; and its subagent chats. Null when so, else why not. */
function carriedProblem(original: string, originalId: string, fork: string, forkId: string): { problem: string | null; summary: string } {
  const side = geminiLocator.sideFiles;
  if (!side) return { problem: 'the Gemini locator has no side files', summary: '' };
  const named = side.referenced(fork, forkId);
  for (const f of named) {
    if (!existsSync(f)) return { problem: `the fork names ${f}, which is not there`, summary: '' };
    const source = join(dirname(dirname(f)), `session-${originalId}`, basename(f));
    if (!readFileSync(f).equals(readFileSync(source))) return { problem: `${f} differs from ${source}`, summary: '' };
  }
  const subOriginal = join(dirname(original), originalId);
  const subFork = join(dirname(fork), forkId);
  const subs = existsSync(subOriginal) ? readdirSync(subOriginal).sort() : [];
  const copied = existsSync(subFork) ? readdirSync(subFork).sort() : [];
  if (subs.join() !== copied.join()) return { problem: `subagent chats: ${subs.length} in ${subOriginal}, ${copied.length} in ${subFork}`, summary: '' };
  return { problem: null, summary: `${named.length} saved outputs, ${copied.length} subagent chats` };
}

export function runGeminiCompat(args: readonly string[]): number {
  const harness = process.env['GLASSBOX_GEMINI_HARNESS'] ?? join(REPO, 'tools/gemini-harness');
  if (!existsSync(join(harness, 'fork-check.mjs'))) {
    console.log(`test:compat skipped: ${harness} has no fork-check.mjs`);
    return 0;
  }
  if (!existsSync(join(harness, 'node_modules'))) {
    console.log(`test:compat skipped: run \`npm install\` in ${harness} first (it installs the three pinned Gemini CLIs), or set GLASSBOX_GEMINI_HARNESS`);
    return 0;
  }
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',')) : null;
  const work = mkdtempSync(join(tmpdir(), 'glassbox-gemini-compat-'));
  const rows: Row[] = [];
  const commands: string[] = [];
  for (const scenario of readdirSync(CORPUS).filter((d) => /^\d\d-/.test(d)).sort()) {
    for (const v of readdirSync(join(CORPUS, scenario)).filter((d) => /^v\d/.test(d)).sort()) {
      const run = `${scenario}/${v}`;
      if (only && !only.has(run)) continue;
      const dir = join(CORPUS, scenario, v);
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
      const main = manifest.sessions.filter((s) => s.kind !== 'subagent' && s.resumable).sort((a, b) => b.messages - a.messages)[0];
      if (!main) continue;
      const project = join(work, run.replace('/', '-'), 'home/.gemini/tmp', manifest.projectFolder);
      cpSync(join(dir, 'gemini-tmp', manifest.projectFolder), project, { recursive: true });
      const original = join(project, 'chats', basename(main.file));
      const after = join(dir, 'project-after');
      let kind = 'planner';
      let result;
      try {
        const write = (actions: ((forkId: string) => ForkAction[]) | null) =>
          writeFork({
            agents: TEST_AGENTS,
            sourcePath: original,
            archiveDir: join(work, 'archive'),
            prepare: (src) => {
              if (actions) return { actions: actions(src.forkId) };
              const plan = planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), repoRoot: after, forkSessionId: src.forkId });
              return { actions: plan.actions, cwd: plan.session.cwd, indexed: plan.indexed, session: plan.session };
            },
          });
        try {
          result = write(null);
        } catch (error) {
          if (!(error instanceof ForkError && error.code === 'nothing_to_do')) throw error;
          kind = 'largest output';
          result = write(() => largestOutput(original));
        }
      } catch (error) {
        rows.push({ run, fork: kind, actions: 0, ok: false, carried: '', note: `no fork written: ${(error as Error).message.slice(0, 200)}` });
        continue;
      }
      if (result.status !== 'written') {
        rows.push({ run, fork: kind, actions: 0, ok: false, carried: '', note: `refused: ${result.report.checks.filter((c) => !c.ok).map((c) => c.id).join(', ')}` });
        continue;
      }
      const carried = carriedProblem(original, main.sessionId, result.forkPath, result.forkId);
      const how = resumeInstruction({ format: TEST_AGENTS.byId('gemini').format, sessionId: result.forkId, sessionPath: result.forkPath, cwd: manifest.cwd, mapped: null, isDir: () => true });
      commands.push(`${run}: ${how.command ?? how.note ?? ''}`);
      const out = join(work, run.replace('/', '-'), 'fork-check');
      const cli = manifest.cli.split('.').slice(0, 2).join('.');
      const check = spawnSync(process.execPath, [join(harness, 'fork-check.mjs'), '--original', original, '--fork', result.forkPath, '--cli', cli, '--cwd', manifest.cwd, '--project', after, '--out', out], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      let verdict: Verdict;
      try {
        verdict = JSON.parse(readFileSync(join(out, 'fork-check.json'), 'utf8')) as Verdict;
      } catch {
        verdict = { equivalent: false, problems: [`fork-check wrote no verdict (exit ${check.status}): ${check.stderr.slice(-300)}`] };
      }
      const ok = check.status === 0 && verdict.equivalent === true && carried.problem === null;
      rows.push({
        run,
        fork: kind,
        actions: result.applied.length,
        ok,
        carried: carried.problem ?? carried.summary,
        note: ok
          ? `${verdict.shortened?.length ?? 0} sent outputs shorter, ${verdict.outputPathsRenamed ?? 0} saved-output paths naming the fork's copies, nothing else differs; ${verdict.listed?.length ?? 0} sessions listed`
          : [...(verdict.problems ?? []), ...(carried.problem ? [carried.problem] : [])].join('; ').slice(0, 300),
      });
    }
  }
  const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  console.log(`${pad('run', 28)} ${pad('fork', 15)} ${pad('actions', 7)} ${pad('result', 6)} ${pad('carried', 36)} note`);
  for (const r of rows) console.log(`${pad(r.run, 28)} ${pad(r.fork, 15)} ${pad(String(r.actions), 7)} ${pad(r.ok === null ? '-' : r.ok ? 'ok' : 'FAIL', 6)} ${pad(r.carried, 36)} ${r.note}`);
  console.log('\nThe resume commands Glassbox printed:');
  for (const c of commands) console.log(`  ${c}`);
  const checked = rows.filter((r) => r.ok !== null);
  const passed = checked.filter((r) => r.ok === true).length;
  console.log(`\n${passed}/${checked.length} forks resumed by the real Gemini CLI (the version that wrote each chat) by their own ids, like their originals, carrying their saved outputs and subagent chats`);
  if (!process.env['GLASSBOX_COMPAT_KEEP']) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
  return passed === checked.length ? 0 : 1;
}
