// `npm run bench:live [-- --agent claude-code|codex|gemini]`: how long a person watching a live session
// waits after each append, for each agent. A host (browser mode's, with its file watcher and two work
// threads) serves a temporary home of the agent holding one large session of its real records (1, 10
// and 100 MB): a Claude Code transcript, a Codex rollout, a Gemini CLI chat log; the session is open, as in the
// window; then real records are appended one at a time and each is timed from the write to the
// window's data in hand: the host's `session:changed` for the file, then `session:snapshot` answered
// and parsed, as the window asks it. React's paint is not part of it (the window's frame is
// measured by `npm run bench:ui`). The baseline, in the same run and on the same file: the host
// reading the session whole again after every change (what it did before it followed sessions).
// Printed, never asserted (the goal: 150 ms at any size).
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createHost, type EngineHost } from '@glassbox/host';
import { buildLargeTranscript, renameIds } from './synthetic';
import { buildLargeRollout, renameRollout } from './synthetic-codex';
import { buildLargeChatLog, renameChatRecord } from './synthetic-gemini';

const ROOT = resolve(import.meta.dirname, '../..');
const SIZES = (process.env['LIVE_SIZES'] ?? '1,10,100').split(',').map(Number);
const APPENDS = 10;

interface Run {
  /** Append → the host's `session:changed` for it. */
  event: number[];
  /** Append → `session:snapshot` answered and parsed. */
  painted: number[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? NaN;
};

/** Resolves with the first event that passes `test`, or null after `ms`. */
function nextEvent(host: EngineHost, test: (event: string, payload: unknown) => boolean, ms: number): Promise<unknown> {
  return new Promise((done) => {
    const timer = setTimeout(() => {
      off();
      done(null);
    }, ms);
    const off = host.onEvent((event, payload) => {
      if (!test(event, payload)) return;
      clearTimeout(timer);
      off();
      done(payload);
    });
  });
}

/** The first change the host tells of the file after an append (an index that reads the file from its start again calls it 'changed'). */
const appended = (path: string) => (event: string, payload: unknown): boolean => event === 'session:changed' && (payload as { path: string; reason: string }).path === path && ['appended', 'changed'].includes((payload as { reason: string }).reason);
const analysed = (path: string) => (event: string, payload: unknown): boolean => event === 'session:changed' && (payload as { path: string; reason: string }).path === path && (payload as { reason: string }).reason === 'changed';

/** One agent's live session: its large file, the records appended to it, and where its client keeps it in a home. */
interface LiveAgent {
  id: string;
  label: string;
  /** The large file of about `megabytes` (made once, kept in the bench's folder). */
  large: (megabytes: number) => Promise<string>;
  /** Real records, renamed as the large file's next repetition would have them. */
  records: string[];
  /** Where the session goes in a home at `work`. */
  place: (work: string) => string;
}

async function measure(agent: LiveAgent, big: string, follow: boolean): Promise<Run> {
  const work = mkdtempSync(join(tmpdir(), 'glassbox-bench-live-'));
  const path = agent.place(work);
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(big, path);
  const records = agent.records;
  const env = { ...process.env, CLAUDE_CONFIG_DIR: join(work, 'claude'), CODEX_HOME: join(work, 'codex'), GEMINI_CLI_HOME: join(work, 'gemini'), GLASSBOX_DATA_DIR: join(work, 'data') };
  const host = createHost(env, { watch: true, samplesDir: null, work: { threads: 2, follow } }, () => {});
  const run: Run = { event: [], painted: [] };
  try {
    await host.start();
    const open = await host.handle('session:snapshot', { path });
    if (!open.ok) throw new Error(`the session did not open: ${JSON.stringify(open.error)}`);
    let next = 0;
    const append = (): void => appendFileSync(path, `${records[next++ % records.length]}\n`);
    // The watcher is ready and the index has the session as it is: one append seen through, untimed.
    for (let tries = 0; tries < 20; tries++) {
      const seen = nextEvent(host, appended(path), 500);
      append();
      if (await seen) break;
    }
    await nextEvent(host, analysed(path), 30_000);
    for (let i = 0; i < APPENDS; i++) {
      const seen = nextEvent(host, appended(path), 30_000);
      const settled = nextEvent(host, analysed(path), 30_000);
      const t0 = performance.now();
      append();
      if (!(await seen)) throw new Error('no session:changed for an append within 30 s');
      run.event.push(performance.now() - t0);
      const snap = await host.handle('session:snapshot', { path });
      if (!snap.ok) throw new Error(`the snapshot failed: ${JSON.stringify(snap.error)}`);
      run.painted.push(performance.now() - t0);
      // The next append comes once the index has the row's figures again (a person reads meanwhile).
      await settled;
    }
  } finally {
    host.close();
    rmSync(work, { recursive: true, force: true });
  }
  return run;
}

const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

function agents(tmp: string): LiveAgent[] {
  const generated = join(ROOT, 'fixtures/corpus/generated');
  const transcripts = readdirSync(generated)
    .filter((n) => /^\d\d-/.test(n))
    .sort()
    .map((n) => join(generated, n, 'transcript.jsonl'));
  // One Codex generation (2026), without the `codex exec fork` file that resumes through its parent, nor subagents' threads.
  const rollouts = walk(join(ROOT, 'fixtures/corpus/codex'))
    .filter((f) => f.endsWith('.jsonl') && /\/0[1-4]-/.test(f) && !(lines(f)[0] ?? '').includes('"history_base"') && !(lines(f)[0] ?? '').includes('"source":{"subagent"'))
    .sort();
  // Gemini CLI 0.61's main chat logs (a subagent's chat lives in a folder of its own).
  const chats = walk(join(ROOT, 'fixtures/corpus/gemini'))
    .filter((f) => f.includes('/v0.61/') && /\/chats\/session-[^/]*\.jsonl$/.test(f) && !f.includes('/02-subagent-error/'))
    .sort();
  const rolloutBody = lines(rollouts[0] as string).slice(1);
  return [
    {
      id: 'claude-code',
      label: 'Claude Code transcript',
      large: async (mb) => {
        const path = join(tmp, `live-${mb}mb.jsonl`);
        await buildLargeTranscript(transcripts, path, mb * 1024 * 1024);
        return path;
      },
      // The records appended: the first scenario's, as the large file's next repetition would have them.
      records: lines(transcripts[0] as string).map((l) => renameIds(l, 'feed0001')),
      place: (work) => join(work, 'claude', 'projects', '-bench-project', `${randomUUID()}.jsonl`),
    },
    {
      id: 'codex',
      label: 'Codex rollout',
      large: async (mb) => {
        const path = join(tmp, `live-codex-${mb}mb.jsonl`);
        await buildLargeRollout(rollouts, path, mb * 1024 * 1024);
        return path;
      },
      records: rolloutBody.map((l, i) => renameRollout(l, 'feed0001', 10_000_000 + i)),
      place: (work) => join(work, 'codex', 'sessions', '2026', '12', '01', basename(rollouts[0] as string)),
    },
    {
      id: 'gemini',
      label: 'Gemini CLI chat log',
      large: async (mb) => {
        const path = join(tmp, `live-gemini-${mb}mb.jsonl`);
        await buildLargeChatLog(chats, path, mb * 1024 * 1024);
        return path;
      },
      // Messages only: a `$set` of the history would rewrite it (the follower reads on, the index too).
      records: lines(chats[0] as string).slice(1).filter((l) => !l.startsWith('{"$')).map((l) => renameChatRecord(l, 'feed0001')),
      place: (work) => join(work, 'gemini', '.gemini', 'tmp', 'bench-project', 'chats', basename(chats[0] as string)),
    },
  ];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.includes('--agent') ? args[args.indexOf('--agent') + 1] : null;
  const tmp = join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  console.log(`Live session: append → window data in hand (session:changed, then session:snapshot answered and parsed), host with watcher and 2 work threads; median of ${APPENDS}`);
  for (const agent of agents(tmp)) {
    if (only && only !== agent.id) continue;
    for (const mb of SIZES) {
      const big = await agent.large(mb);
      const before = await measure(agent, big, false);
      const after = await measure(agent, big, true);
      const a = median(after.painted);
      const b = median(before.painted);
      console.log(
        `${agent.label}: append → painted at ${mb} MB: ${a.toFixed(0)} ms median of ${APPENDS} (event ${median(after.event).toFixed(0)} ms); read whole again: ${b.toFixed(0)} ms (event ${median(before.event).toFixed(0)} ms); ratio ${(a / b).toFixed(2)}×`,
      );
    }
  }
}

await main();
