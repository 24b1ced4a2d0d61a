/**
 * Opt-in compatibility check with the real Claude Code CLI (`npm run test:compat`).
 *
 * For each generated corpus session, writes forks with Glassbox's own writer into a scratch copy of
 * the session's projects folder — one from the planner (every class, nothing protected), one that
 * tombstones every payload a fork may touch — and runs the cc-harness `fork-check.mjs` on each: the
 * real client resumes original and fork offline against a recording mock, and the two requests must
 * carry the same messages, only with the tombstoned payloads shorter. A third fork elides every result
 * over 500 tokens (the default ends kept): it must resume the same way, only the elided payloads
 * shorter; then `elision-recall.mjs` resumes it with `glassbox mcp` configured, the scripted model
 * calls `recall` with a marker's ref, and the tool result the client sends back must be the
 * archived middle, sha-256 equal, recorded in the transcript like any MCP call (docs/elision.md).
 *
 * Needs a copy of the harness with its dependencies installed (it pins @anthropic-ai/claude-code):
 *   (a copy of the cc-harness, with npm install done in it; see CONTRIBUTING.md)
 *   GLASSBOX_CC_HARNESS=/tmp/cc-harness npm run test:compat        # CLAUDE_BIN=… to use another binary
 * Without it the check is skipped, with the reason. Exit 0 = every fork resumed like its original.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFork } from '@glassbox/adapter-claude-code';
import { DEFAULT_ELIDE_KEEP } from '@glassbox/core';
import { ForkError, planFromFile, writeFork, type PlanAction } from '@glassbox/store/fork';
import { GENERATED, candidateActions } from '@glassbox/test-support/claude-code/fork-corpus';
import { linesOf } from '@glassbox/test-support/store/fork';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

// `--agent codex [rollout files…]` checks Codex forks instead (codex-compat.ts), `--agent gemini` Gemini CLI
// forks (gemini-compat.ts); Claude Code is the default.
const agentAt = process.argv.indexOf('--agent');
const agent = agentAt >= 0 ? process.argv[agentAt + 1] : 'claude-code';
if (agent === 'codex') {
  const { runCodexCompat } = await import('./codex-compat');
  process.exit(runCodexCompat(process.argv.slice(2).filter((_a, i) => i !== agentAt - 2 && i !== agentAt - 1)));
} else if (agent === 'gemini') {
  const { runGeminiCompat } = await import('./gemini-compat');
  process.exit(runGeminiCompat(process.argv.slice(2)));
} else if (agent !== 'claude-code') {
  console.error(`test:compat: unknown agent ${agent ?? '(none)'}; use --agent claude-code, codex or gemini`);
  process.exit(2);
}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CORPUS = process.env['GLASSBOX_CORPUS'] ?? join(REPO, 'fixtures/corpus/generated');

function skip(reason: string): never {
  console.log(`test:compat skipped: ${reason}`);
  process.exit(0);
}

const harness = process.env['GLASSBOX_CC_HARNESS'];
if (!harness) skip('set GLASSBOX_CC_HARNESS to a copy of cc-harness with `npm install` done (see scripts/compat/fork-compat.ts)');
if (!existsSync(join(harness, 'fork-check.mjs'))) skip(`${harness} has no fork-check.mjs`);
const claude = process.env['CLAUDE_BIN'] ?? join(harness, 'node_modules', '.bin', 'claude');
if (!existsSync(claude)) skip(`no claude binary (${claude}); run npm install in ${harness} or set CLAUDE_BIN`);

interface Row {
  session: string;
  fork: string;
  actions: number;
  ok: boolean;
  messages: string;
  chars: string;
  note: string;
}

const rows: Row[] = [];
const work = mkdtempSync(join(tmpdir(), 'glassbox-compat-'));

function writable(p: string): void {
  const dir = statSync(p).isDirectory();
  chmodSync(p, dir ? 0o755 : 0o644);
  if (dir) for (const n of readdirSync(p)) writable(join(p, n));
}

// `--only a,b`: just these fixtures (to look into one; GLASSBOX_COMPAT_KEEP=1 keeps the scratch folder).
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set((process.argv[onlyAt + 1] ?? '').split(',')) : null;
// The hostile sessions too (names and outputs with controls, bidi text, a tombstone-shaped output):
// the real client must resume their forks like any other.
const HOSTILE = ['19-hostile-text', '20-newest-client-hostile'];
const fixtures = [
  ...GENERATED.map((name) => ({ name, fixture: join(CORPUS, name) })),
  ...(process.env['GLASSBOX_CORPUS'] ? [] : HOSTILE.map((name) => ({ name, fixture: join(REPO, 'fixtures/corpus/hostile', name) }))),
];
for (const { name, fixture } of fixtures.filter((f) => only === null || only.has(f.name))) {
  const manifest = JSON.parse(readFileSync(join(fixture, 'manifest.json'), 'utf8')) as { session_ids: string[] };
  const sessionId = manifest.session_ids[0] as string;
  const projectDir = join(work, name, 'project');
  cpSync(join(fixture, 'claude-project'), projectDir, { recursive: true });
  writable(projectDir);
  const source = join(projectDir, `${sessionId}.jsonl`);
  const archiveDir = join(work, name, 'archive');
  const plans: { kind: string; prepare: (path: string) => PlanAction[] }[] = [
    {
      kind: 'planner',
      prepare: (path) =>
        planFromFile(path, { agent: agentForFile(TEST_AGENTS, path),
          repoRoot: join(fixture, 'project-after'),
          classes: ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'],
          withInferred: true,
          protectTail: 0,
          minimumSavings: 0,
        }).actions,
    },
    {
      kind: 'elided',
      // Elision alone, low enough that the fixtures' larger results are elided, with the default ends.
      prepare: (path) =>
        planFromFile(path, { agent: agentForFile(TEST_AGENTS, path), repoRoot: join(fixture, 'project-after'), classes: ['elided'], elide: { overTokens: 500, keep: DEFAULT_ELIDE_KEEP }, protectTail: 0, minimumSavings: 0 }).actions,
    },
    {
      kind: 'every payload',
      // Every successful tool result and Write/Edit input that a tombstone can shorten.
      prepare: (path) => {
        const lines = linesOf(path);
        return buildFork(lines, candidateActions(lines), 'probe').applied.map((a) => a.action);
      },
    },
  ];
  for (const plan of plans) {
    let forkPath: string;
    let actions: number;
    try {
      const r = writeFork({ agents: TEST_AGENTS, sourcePath: source, archiveDir, prepare: (src) => ({ actions: plan.prepare(src.path) }) });
      if (r.status !== 'written') {
        rows.push({ session: name, fork: plan.kind, actions: 0, ok: false, messages: '', chars: '', note: `refused: ${r.report.checks.filter((c) => !c.ok).map((c) => c.id).join(', ')}` });
        continue;
      }
      forkPath = r.forkPath;
      actions = r.applied.length;
    } catch (error) {
      const nothing = error instanceof ForkError && error.code === 'nothing_to_do';
      rows.push({ session: name, fork: plan.kind, actions: 0, ok: nothing, messages: '', chars: '', note: nothing ? 'no fork: nothing to remove' : `not written: ${(error as Error).message.slice(0, 120)}` });
      continue;
    }
    const out = join(work, name, `check-${plan.kind.replace(/\W+/g, '-')}`);
    const run = spawnSync(process.execPath, [join(harness, 'fork-check.mjs'), '--original', source, '--fork', forkPath, '--claude-project-dir', projectDir, '--out', out], {
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_BIN: claude },
      timeout: 300_000,
    });
    let verdict: { ok?: boolean; failures?: string[]; original?: { messages?: number }; fork?: { messages?: number }; chars?: { original: number; fork: number; reduction_pct: number }; shortened?: unknown[] };
    try {
      verdict = JSON.parse(run.stdout);
    } catch {
      verdict = { ok: false, failures: [`fork-check printed no verdict (exit ${run.status}): ${run.stderr.slice(0, 200)}`] };
    }
    rows.push({
      session: name,
      fork: plan.kind,
      actions,
      ok: run.status === 0 && verdict.ok === true,
      messages: `${verdict.original?.messages ?? '?'} / ${verdict.fork?.messages ?? '?'}`,
      chars: verdict.chars ? `${verdict.chars.original} → ${verdict.chars.fork} (−${verdict.chars.reduction_pct}%)` : '',
      note: verdict.ok ? `${verdict.shortened?.length ?? 0} payloads shorter, nothing else differs` : (verdict.failures ?? []).join('; ').slice(0, 160),
    });
    if (plan.kind === 'elided' && run.status === 0 && verdict.ok === true) rows.push(recallRow(name, forkPath, archiveDir, join(work, name)));
  }
}

/**
 * The elided fork resumed with `glassbox mcp` wired in: the model's `recall` gets the archived middle
 * back, hash-equal (elision-recall.mjs prints the verdict).
 */
function recallRow(session: string, forkPath: string, archiveDir: string, scratch: string): Row {
  const run = spawnSync(process.execPath, [join(REPO, 'scripts/compat/elision-recall.mjs'), '--fork', forkPath, '--archive', archiveDir], {
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_BIN: claude, GLASSBOX_CC_HARNESS: harness, TMPDIR: scratch },
    timeout: 300_000,
  });
  let v: { hash_equal?: boolean; recorded_tool_use?: boolean; recorded_tool_result?: boolean; received_chars?: number | null; expected_sha256?: string; ref?: string };
  try {
    v = JSON.parse(run.stdout) as typeof v;
  } catch {
    return { session, fork: 'recall (mcp)', actions: 1, ok: false, messages: '', chars: '', note: `elision-recall printed no verdict (exit ${run.status}): ${run.stderr.slice(0, 160)}` };
  }
  const ok = run.status === 0 && v.hash_equal === true;
  const note = ok
    ? `recall ${v.ref ?? '?'}: ${v.received_chars ?? '?'} chars back, sha-256 equal to the archived middle; call and result recorded`
    : `hash_equal ${String(v.hash_equal)}, recorded use ${String(v.recorded_tool_use)}, result ${String(v.recorded_tool_result)}`;
  return { session, fork: 'recall (mcp)', actions: 1, ok, messages: '', chars: '', note };
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
console.log(`Claude Code: ${spawnSync(claude, ['--version'], { encoding: 'utf8' }).stdout.trim()}`);
console.log(`${pad('session', 30)} ${pad('fork', 14)} ${pad('actions', 7)} ${pad('result', 6)} ${pad('messages', 9)} ${pad('request chars', 28)} note`);
for (const r of rows) {
  console.log(`${pad(r.session, 30)} ${pad(r.fork, 14)} ${pad(String(r.actions), 7)} ${pad(r.ok ? 'ok' : 'FAIL', 6)} ${pad(r.messages, 9)} ${pad(r.chars, 28)} ${r.note}`);
}
const checked = rows.filter((r) => r.actions > 0);
const failed = rows.filter((r) => !r.ok);
console.log(`\n${checked.length} forks resumed by the real client: ${checked.length - failed.length} passed, ${failed.length} failed`);
const count = (kind: string): string => {
  const of = rows.filter((r) => r.fork === kind && r.actions > 0);
  return `${of.filter((r) => r.ok).length}/${of.length}`;
};
console.log(`elided forks resumed like their originals (only the elided payloads shorter): ${count('elided')}; recall over MCP hash-equal: ${count('recall (mcp)')}`);
if (!process.env['GLASSBOX_COMPAT_KEEP']) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
process.exit(failed.length > 0 ? 1 : 0);
