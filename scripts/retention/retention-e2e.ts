/**
 * Opt-in end-to-end check of the retention guard with the real Claude Code (`npm run test:retention`).
 *
 * A real session (fixture 04: a subagent, checkpoint backups) is installed in a scratch HOME's
 * `~/.claude/projects/<slug>/`, its files aged 15 days, and `cleanupPeriodDays` set to 10. Then:
 *   1. `glassbox sessions` dates it (overdue) and warns; `glassbox keep` keeps it;
 *   2. the real client, started through the harness for a run longer than its 5-second clean-up delay
 *      (the first run in this HOME, so no `.last-cleanup` stops it), deletes it with its folder;
 *   3. `glassbox sessions` still lists it ("kept — deleted by Claude Code on …"), `inspect`, `xray` and
 *      `cost` read it from the archive;
 *   4. `glassbox restore` writes it back, byte for byte;
 *   5. the real client resumes the restored session in place, and the request it sends carries the
 *      same messages as the request it sends for the pristine session (resumed in a fresh HOME at the
 *      same paths on the same day).
 *
 *   GLASSBOX_CC_HARNESS=/path/to/cc-harness npm run test:retention      # CLAUDE_BIN=… for another binary
 * Without GLASSBOX_CC_HARNESS it is skipped, with the reason. Exit 0 = every step held.
 * GLASSBOX_RETENTION_KEEP=1 keeps the scratch folder. Runs itself in a network namespace with only
 * loopback when it can (as the harness does), so nothing leaves the machine.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { main } from '../../apps/cli/src/main';
import type { CliIO } from '../../apps/cli/src/io';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = join(REPO, 'fixtures/corpus/generated/04-subagent-compact-multiturn');
const SESSION_ID = 'db5075e3-fee3-4d57-a736-cd3f2035f95a';
const DAY = 86_400_000;

function skip(reason: string): never {
  console.log(`test:retention skipped: ${reason}`);
  process.exit(0);
}

const harness = process.env['GLASSBOX_CC_HARNESS'];
if (!harness) skip('set GLASSBOX_CC_HARNESS to a copy of cc-harness with `npm install` done (see scripts/retention/retention-e2e.ts)');
if (!existsSync(join(harness, 'lib.mjs'))) skip(`${harness} has no lib.mjs`);
const claude = process.env['CLAUDE_BIN'] ?? join(harness, 'node_modules', '.bin', 'claude');
if (!existsSync(claude)) skip(`no claude binary (${claude}); run npm install in ${harness} or set CLAUDE_BIN`);

// The whole check runs in a network namespace with only loopback (the mock and the client both live in it).
if (process.env['CC_HARNESS_IN_NETNS'] !== '1' && process.env['CC_HARNESS_NETNS'] !== '0') {
  const asRoot = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  const asUser = !asRoot && spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore' }).status === 0;
  if (asRoot || asUser) {
    const runTs = join(REPO, 'apps/cli/bin/run-ts.mjs');
    const r = spawnSync('unshare', [...(asUser ? ['-r'] : []), '-n', '--', 'sh', '-c', 'ip link set lo up 2>/dev/null || true; exec "$0" "$@"', process.execPath, runTs, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, CC_HARNESS_IN_NETNS: '1' },
    });
    process.exit(r.status ?? 1);
  }
  console.log('test:retention: no network namespace available; running with the harness environment only');
}

interface Lib {
  claudeEnv(o: { home: string; baseUrl: string; extra?: Record<string, string> }): NodeJS.ProcessEnv;
  startMock(o: { script?: string; reqDir?: string; log?: string; mode?: string; reply?: string; portFile: string }): Promise<{ baseUrl: string; stop(): Promise<void> }>;
  runClaude(o: { bin: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ code: number | null; stdout: string; stderr: string; durationMs: number }>;
  projectSlug(cwd: string): string;
}
const lib = (await import(pathToFileURL(join(harness, 'lib.mjs')).href)) as Lib;

const work = mkdtempSync(join(tmpdir(), 'glassbox-retention-e2e-'));
const home = join(work, 'home');
const config = join(home, '.claude');
const project = join(work, 'project');
const elsewhere = join(work, 'elsewhere');
mkdirSync(project, { recursive: true });
mkdirSync(elsewhere, { recursive: true });
const slug = lib.projectSlug(realpathSync(project));
const projectDir = join(config, 'projects', slug);
const sessionPath = join(projectDir, `${SESSION_ID}.jsonl`);
const glassboxEnv: NodeJS.ProcessEnv = { HOME: home, GLASSBOX_DATA_DIR: join(work, 'glassbox'), PATH: process.env['PATH'] ?? '' };
const pristine = readFileSync(join(FIXTURE, 'claude-project', `${SESSION_ID}.jsonl`));

const results: { step: string; ok: boolean; detail: string }[] = [];
function check(step: string, ok: boolean, detail = ''): void {
  results.push({ step, ok, detail });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${step}${detail ? ` — ${detail}` : ''}`);
}

async function glassbox(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (t) => out.push(t), err: (t) => err.push(t), env: glassboxEnv, color: false, isTTY: false, exitCode: 0 };
  const code = await main(['node', 'glassbox', ...args], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The session as the client keeps it: transcript, its folder (subagents), its checkpoint backups. */
function install(): void {
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(sessionPath, pristine);
  cpSync(join(FIXTURE, 'claude-project', SESSION_ID), join(projectDir, SESSION_ID), { recursive: true });
  cpSync(join(FIXTURE, 'file-history', SESSION_ID), join(config, 'file-history', SESSION_ID), { recursive: true });
}

function age(path: string, days: number): void {
  const t = new Date(Date.now() - days * DAY);
  if (statSync(path).isDirectory()) for (const n of readdirSync(path)) age(join(path, n), days);
  utimesSync(path, t, t);
}

/** Resumes the session with `-p "reply ok"` in `project` and returns the messages of the request the client sent. */
async function resume(label: string): Promise<{ code: number | null; messages: unknown[] | null; stderr: string }> {
  const reqDir = join(work, `requests-${label}`);
  const mock = await lib.startMock({ reqDir, log: join(work, `mock-${label}.log`), mode: 'record', reply: 'ok', portFile: join(work, `port-${label}`) });
  let r;
  try {
    r = await lib.runClaude({ bin: claude as string, args: ['--resume', SESSION_ID, '-p', 'reply ok', '--output-format', 'json', '--dangerously-skip-permissions'], cwd: project, env: lib.claudeEnv({ home, baseUrl: mock.baseUrl }), timeoutMs: 120_000 });
  } finally {
    await mock.stop();
  }
  const main = existsSync(reqDir) ? readdirSync(reqDir).filter((f) => /-main\.json$/.test(f)).sort()[0] : undefined;
  const body = main ? (JSON.parse(readFileSync(join(reqDir, main), 'utf8')) as { body: { messages: unknown[] } }).body : null;
  return { code: r.code, messages: body ? (withoutCacheMarkers(body.messages) as unknown[]) : null, stderr: r.stderr.slice(-300) };
}

function withoutCacheMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarkers);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'cache_control').map(([k, v]) => [k, withoutCacheMarkers(v)]));
  return value;
}

try {
  console.log(`Claude Code ${spawnSync(claude, ['--version'], { encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: work } }).stdout.trim()}; scratch ${work}`);
  install();
  writeFileSync(join(config, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 10 }));
  age(sessionPath, 15);
  age(join(projectDir, SESSION_ID), 15);
  age(join(config, 'file-history', SESSION_ID), 15);

  // 1. Glassbox knows the rule, and keeps the session.
  const listed = await glassbox('sessions', '--json', '--workers', '0', '--no-analysis');
  const row = (JSON.parse(listed.out || '[]') as { sessionId: string; expiresAt: string | null; retention: { days: number | null } | null }[]).find((r) => r.sessionId === SESSION_ID);
  check('glassbox sessions dates the session by its mtime and the 10-day setting', row?.retention?.days === 10 && row.expiresAt !== null && Date.parse(row.expiresAt) < Date.now(), `expiresAt ${row?.expiresAt ?? 'none'}`);
  check('glassbox sessions warns that the session is due and not kept', /not kept are due for deletion/.test(listed.err), listed.err.split('\n')[0] ?? '');
  const kept = await glassbox('keep', SESSION_ID);
  check('glassbox keep keeps it', kept.code === 0 && kept.out.startsWith(`kept ${SESSION_ID}`), kept.out.split('\n')[0] ?? kept.err);

  // 2. The real client's clean-up deletes it (a run of 8 s: the clean-up starts 5 s after start-up).
  const script = join(work, 'slow-reply.json');
  writeFileSync(script, JSON.stringify({ turns: [{ text: 'ok', delay_ms: 8000 }], end_text: 'ok' }));
  const mock = await lib.startMock({ script, reqDir: join(work, 'requests-cleanup'), log: join(work, 'mock-cleanup.log'), portFile: join(work, 'port-cleanup') });
  let run;
  try {
    run = await lib.runClaude({ bin: claude, args: ['-p', 'hi', '--output-format', 'json', '--dangerously-skip-permissions'], cwd: elsewhere, env: lib.claudeEnv({ home, baseUrl: mock.baseUrl }), timeoutMs: 120_000 });
  } finally {
    await mock.stop();
  }
  const deleted = !existsSync(sessionPath) && !existsSync(join(projectDir, SESSION_ID));
  check('the real client deleted the session and its folder', run.code === 0 && deleted, `exit ${run.code}, ${Math.round(run.durationMs / 1000)} s; checkpoint backups ${existsSync(join(config, 'file-history', SESSION_ID)) ? 'kept' : 'deleted too'}`);

  // 3. Glassbox still lists it, and reads it from the archive.
  const after = await glassbox('sessions', '--json', '--workers', '0', '--no-analysis');
  const gone = (JSON.parse(after.out || '[]') as { sessionId: string; subagents: number; kept: { gone: { byClient: boolean } | null } | null }[]).find((r) => r.sessionId === SESSION_ID);
  check('glassbox sessions still lists it, marked deleted by the client', gone?.kept?.gone?.byClient === true && gone.subagents === 1, JSON.stringify(gone?.kept?.gone ?? null));
  const table = await glassbox('sessions', '--no-refresh');
  check('the table says when the client deleted it', /did \d{4}-\d\d-\d\d\s+yes/.test(table.out), table.out.split('\n').find((l) => l.includes('did ')) ?? '');
  const inspect = await glassbox('inspect', SESSION_ID);
  check('glassbox inspect reads it from the archive', inspect.code === 0 && /kept — deleted by Claude Code on \d{4}-\d\d-\d\d/.test(inspect.out), inspect.out.split('\n').find((l) => l.includes('keeping')) ?? inspect.err);
  const xray = await glassbox('xray', SESSION_ID);
  const cost = await glassbox('cost', SESSION_ID, '--json');
  check('glassbox xray and cost read it from the archive', xray.code === 0 && cost.code === 0 && (JSON.parse(cost.out) as { total: { responses: number } }).total.responses > 0, `xray exit ${xray.code}, cost exit ${cost.code}`);
  const verify = await glassbox('archive', 'verify');
  check('glassbox archive verify', verify.code === 0, verify.out.split('\n')[0] ?? '');

  // 4. Restore.
  const restored = await glassbox('restore', SESSION_ID);
  const bytesBack = existsSync(sessionPath) && readFileSync(sessionPath).equals(pristine);
  check('glassbox restore writes it back byte for byte, with its subagent files', restored.code === 0 && bytesBack && existsSync(join(projectDir, SESSION_ID, 'subagents')), restored.out.split('\n').slice(0, 2).join(' / ') || restored.err);

  // 5. The real client resumes the restored session, sending what it sends for the pristine one.
  const b = await resume('restored');
  const appended = existsSync(sessionPath) && readFileSync(sessionPath).length > pristine.length && readFileSync(sessionPath).subarray(0, pristine.length).equals(pristine);
  check('the real client resumes the restored session in place', b.code === 0 && b.messages !== null && appended, `exit ${b.code}, ${b.messages?.length ?? 0} messages; file appended: ${appended}`);
  rmSync(home, { recursive: true, force: true });
  install();
  const a = await resume('pristine');
  const same = a.messages !== null && JSON.stringify(a.messages) === JSON.stringify(b.messages);
  check('…and sends the same messages as for the pristine session', same, `${a.messages?.length ?? 0} vs ${b.messages?.length ?? 0} messages`);
} catch (error) {
  check('the check ran to the end', false, (error as Error).stack ?? String(error));
}

const failed = results.filter((r) => !r.ok);
console.log(`\n${results.length - failed.length} of ${results.length} steps held${failed.length ? `; failed: ${failed.map((f) => f.step).join('; ')}` : ''}`);
if (!process.env['GLASSBOX_RETENTION_KEEP']) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
process.exit(failed.length > 0 ? 1 : 0);
