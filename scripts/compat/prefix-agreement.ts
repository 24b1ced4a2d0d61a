/**
 * Opt-in check of the prompt-cache prefix estimate against the real Claude Code client
 * (`node apps/cli/bin/run-ts.mjs scripts/compat/prefix-agreement.ts`, with GLASSBOX_CC_HARNESS set
 * as for test:compat).
 *
 * For each generated corpus session: plan a fork (every proven class, nothing protected, no minimum),
 * write it with Glassbox's writer into a scratch copy of the projects folder, and let the harness's
 * fork-check resume original and fork in the real client against its recording mock. Then find where
 * the two requests the client sends first differ (tools → system → message blocks, cache markers
 * ignored) and compare with the estimate (`economics.prefixTokens`): which block, and how many tokens
 * come before it. The real prefix is measured in characters of the original's request and scaled to
 * tokens by the session's own reported window (tokens per character of that request).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planFromFile, writeFork } from '@glassbox/store/fork';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CORPUS = join(REPO, 'fixtures/corpus/generated');
const harness = process.env['GLASSBOX_CC_HARNESS'];
if (!harness || !existsSync(join(harness, 'fork-check.mjs'))) {
  console.log('prefix-agreement skipped: set GLASSBOX_CC_HARNESS to a copy of cc-harness with `npm install` done');
  process.exit(0);
}
const claude = process.env['CLAUDE_BIN'] ?? join(harness, 'node_modules', '.bin', 'claude');
const work = process.env['GLASSBOX_PREFIX_OUT'] ?? mkdtempSync(join(tmpdir(), 'glassbox-prefix-'));

type Block = Record<string, unknown>;
interface Body {
  tools?: unknown[];
  system?: unknown;
  messages?: { role: string; content: string | Block[] }[];
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'cache_control').map(([k, x]) => [k, strip(x)]));
  return v;
}

/** The request as the provider lays it out for caching: tools, then system blocks, then message blocks. */
function units(body: Body): { where: string; id: string | null; text: string }[] {
  const out: { where: string; id: string | null; text: string }[] = [];
  (body.tools ?? []).forEach((t, i) => out.push({ where: `tools[${i}]`, id: null, text: JSON.stringify(strip(t)) }));
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : ((body.system as unknown[]) ?? []);
  system.forEach((s, i) => out.push({ where: `system[${i}]`, id: null, text: JSON.stringify(strip(s)) }));
  (body.messages ?? []).forEach((m, i) => {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    blocks.forEach((b, j) => {
      const id = typeof b['tool_use_id'] === 'string' ? b['tool_use_id'] : typeof b['id'] === 'string' ? b['id'] : null;
      out.push({ where: `messages[${i}].content[${j}] (${m.role} ${String(b['type'])})`, id, text: JSON.stringify(strip(b)) });
    });
  });
  return out;
}

function writable(p: string): void {
  const dir = statSync(p).isDirectory();
  chmodSync(p, dir ? 0o755 : 0o644);
  if (dir) for (const n of readdirSync(p)) writable(join(p, n));
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
console.log(`${pad('session', 30)} ${pad('first planned change', 34)} ${pad('first difference in the request', 44)} ${pad('same block', 10)} ${pad('estimate', 9)} ${pad('real', 9)} error`);
for (const name of readdirSync(CORPUS).filter((n) => /^\d\d-/.test(n)).sort()) {
  const manifest = JSON.parse(readFileSync(join(CORPUS, name, 'manifest.json'), 'utf8')) as { session_ids: string[] };
  const projectDir = join(work, name, 'project');
  rmSync(join(work, name), { recursive: true, force: true });
  cpSync(join(CORPUS, name, 'claude-project'), projectDir, { recursive: true });
  writable(projectDir);
  const source = join(projectDir, `${manifest.session_ids[0]}.jsonl`);
  const options = { agent: agentForFile(TEST_AGENTS, source), repoRoot: join(CORPUS, name, 'project-after'), protectTail: 0, minimumSavings: 0 };
  const planned = planFromFile(source, options);
  if (planned.actions.length === 0) {
    console.log(`${pad(name, 30)} no fork: ${planned.plan.reasons[0]?.code ?? 'nothing to remove'}`);
    continue;
  }
  const order = new Map(planned.snapshot.segments.map((s, i) => [s.id, i]));
  const first = [...planned.plan.actions].sort((a, b) => (order.get(a.segmentId) ?? 0) - (order.get(b.segmentId) ?? 0))[0];
  const written = writeFork({ agents: TEST_AGENTS, sourcePath: source, archiveDir: join(work, name, 'archive'), prepare: (src) => ({ actions: planFromFile(src.path, options).actions }) });
  if (written.status !== 'written') {
    console.log(`${pad(name, 30)} fork refused`);
    continue;
  }
  const out = join(work, name, 'check');
  const run = spawnSync(process.execPath, [join(harness, 'fork-check.mjs'), '--original', source, '--fork', written.forkPath, '--claude-project-dir', projectDir, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_BIN: claude },
    timeout: 300_000,
  });
  const req = (side: string): Body | null => {
    const f = join(out, `${side}-resume`, 'main-request.json');
    return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as { body: Body }).body : null;
  };
  const o = req('original');
  const f = req('fork');
  if (!o || !f) {
    console.log(`${pad(name, 30)} the client sent no request (fork-check exit ${run.status}): ${run.stderr.slice(0, 160)}`);
    continue;
  }
  const ou = units(o);
  const fu = units(f);
  let k = 0;
  while (k < ou.length && k < fu.length && ou[k]?.text === fu[k]?.text) k++;
  const chars = (us: typeof ou, n: number): number => us.slice(0, n).reduce((s, u) => s + u.text.length, 0);
  const realShare = chars(ou, k) / chars(ou, ou.length);
  const window = planned.economics.windowTokens;
  const realTokens = Math.round(realShare * window);
  const estimate = planned.economics.prefixTokens;
  const diff = ou[k];
  const same = diff?.id !== null && diff?.id === first?.toolUseId;
  console.log(
    `${pad(name, 30)} ${pad(`line ${first?.line} ${first?.toolUseId?.slice(0, 18) ?? ''}`, 34)} ${pad(`${diff?.where ?? 'none'} ${diff?.id?.slice(0, 18) ?? ''}`, 44)} ${pad(same ? 'yes' : 'NO', 10)} ${pad(String(estimate), 9)} ${pad(String(realTokens), 9)} ${(((estimate - realTokens) / Math.max(1, realTokens)) * 100).toFixed(1)}%`,
  );
}
console.log(`\nreal = the original request's characters before the first difference, as a share of its characters, times the reported window; artifacts in ${work}`);
