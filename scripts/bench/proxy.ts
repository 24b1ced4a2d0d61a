// `npm run bench:proxy`: what `glassbox proxy` does to real Claude Code sessions (the recorded runs in
// fixtures/proxy/), measured against the same requests sent directly, in the same process:
//   - tokens: input, cache reads and cache writes the provider would bill (the prompt-cache model of
//     scripts/bench/proxy-upstream.ts, on the recorded clock and the runs' 4 s cache lifetime), and
//     their cost in input-token equivalents (read ×0.1, 5-minute write ×1.25), for three ways of
//     sending them: directly; through the proxy (removals when the cache has expired, or when they pay
//     within the horizon); and removing every proven payload at once (--evict-now), which is what a fork
//     made the moment something is proven would do to a warm cache;
//   - requests until the first removal, cache breaks caused per idle gap;
//   - added latency per request: request to last byte, through the proxy and directly, interleaved
//     (median and p99);
//   - streaming: a reply whose first event comes at once and the rest 200 ms later, through the proxy
//     and directly — the time to its first byte shows whether the proxy passes a stream on as it comes
//     or holds the reply until it ends;
//   - memory per proxied conversation (heap after collection, many conversations).
// Run with `node --expose-gc` (the npm script does) for the memory figure.
import http from 'node:http';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanTokens } from '@glassbox/core';
import { defaultAgents } from '@glassbox/agents';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { ProxyArchive, startProxy, type DecideSettings, type RunningProxy } from '@glassbox/proxy';
import { RECORDED_RUNS, recordedRun, type RecordedExchange, type RecordedRun } from '@glassbox/test-support/request-anthropic/recorded';
import { PromptCache, modelUpstream, type ModelUpstream, type ModelUsage } from './proxy-upstream';

const TTL_MS = 4000;
const LATENCY_ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const MEMORY_CONVERSATIONS = Number(process.env['BENCH_CONVERSATIONS'] ?? 100);
const READ = 0.1;
const WRITE = 1.25;

type Strategy = 'direct' | 'proxy' | 'evict-now';

function post(url: string, ex: Pick<RecordedExchange, 'url' | 'session' | 'body'>, session = ex.session): Promise<{ ms: number; firstByteMs: number; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstByteMs = NaN;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench' };
    if (session) headers['x-claude-code-session-id'] = session;
    const req = http.request(url + ex.url, { method: 'POST', headers }, (res) => {
      res.on('data', () => {
        if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - t0;
      });
      res.on('end', () => resolve({ ms: performance.now() - t0, firstByteMs, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(ex.body);
  });
}

function settings(run: RecordedRun, evictNow: boolean, repo: string): DecideSettings {
  return {
    ports: nodeAnalysisPorts(),
    mappings: { [run.cwd]: repo },
    prices: defaultAgents().byId('claude-code').format.prices,
    protectTail: 3,
    horizon: 20,
    minimumSavings: 200,
    evictNow,
    cacheTtlMs: TTL_MS,
  };
}

interface Scratch {
  dir: string;
  repo: string;
  archive: ProxyArchive;
}

function scratch(run: RecordedRun): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-bench-proxy-'));
  const repo = join(dir, 'repo');
  // The disk as the run left it: gone and drift are proven against it (fixtures/proxy/README.md).
  cpSync(run.projectAfter, repo, { recursive: true });
  return { dir, repo, archive: new ProxyArchive(join(dir, 'archive')) };
}

async function withProxy<T>(run: RecordedRun, upstream: string, evictNow: boolean, clock: { now: number }, body: (proxy: RunningProxy, s: Scratch) => Promise<T>): Promise<T> {
  const s = scratch(run);
  const proxy = await startProxy({ upstream, host: '127.0.0.1', port: 0, archive: s.archive, maxAnalysedBytes: 64 * 1024 * 1024, clock: () => clock.now, settings: settings(run, evictNow, s.repo) });
  try {
    return await body(proxy, s);
  } finally {
    await proxy.close();
    rmSync(s.dir, { recursive: true, force: true });
  }
}

interface TokenRow {
  run: string;
  strategy: Strategy;
  input: number;
  read: number;
  write: number;
  cost: number;
  firstRemoval: number | null;
  breaksCaused: number;
  gaps: number;
  removals: number;
}

/** Cache breaks: requests within the lifetime of the one before that read less than it had cached. */
function breaks(run: RecordedRun, usages: readonly ModelUsage[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < usages.length; i++) {
    const prev = usages[i - 1] as ModelUsage;
    const cur = usages[i] as ModelUsage;
    const gap = Date.parse(run.exchanges[i]?.time ?? '') - Date.parse(run.exchanges[i - 1]?.time ?? '');
    if (gap <= TTL_MS && cur.cache_read_input_tokens < prev.cache_read_input_tokens + prev.cache_creation_input_tokens) out.push(i);
  }
  return out;
}

function idleGaps(run: RecordedRun): number {
  let n = 1;
  for (let i = 1; i < run.exchanges.length; i++) if (Date.parse(run.exchanges[i]?.time ?? '') - Date.parse(run.exchanges[i - 1]?.time ?? '') > TTL_MS) n++;
  return n;
}

async function tokensFor(run: RecordedRun, strategy: Strategy): Promise<{ usages: ModelUsage[]; removals: number; firstRemoval: number | null }> {
  const upstream = await modelUpstream(new PromptCache(TTL_MS));
  const clock = { now: 0 };
  const send = async (url: string): Promise<void> => {
    for (const ex of run.exchanges) {
      clock.now = Date.parse(ex.time);
      upstream.next = { reply: ex.reply ?? Buffer.alloc(0), now: clock.now };
      await post(url, ex);
    }
  };
  try {
    if (strategy === 'direct') {
      await send(upstream.url);
      return { usages: upstream.usages, removals: 0, firstRemoval: null };
    }
    return await withProxy(run, upstream.url, strategy === 'evict-now', clock, async (proxy, s) => {
      await send(proxy.url);
      const id = s.archive.conversations()[0] ?? '';
      const removals = s.archive.removals(id);
      const first = removals.reduce<number | null>((m, r) => (m === null || r.request < m ? r.request : m), null);
      return { usages: upstream.usages, removals: removals.length, firstRemoval: first };
    });
  } finally {
    await upstream.close();
  }
}

const STREAM_PAUSE_MS = 200;

/** Time to the first byte of a reply streamed in two parts STREAM_PAUSE_MS apart, directly and through the proxy (ms). */
async function streaming(run: RecordedRun): Promise<{ direct: number[]; proxy: number[] }> {
  const direct: number[] = [];
  const proxied: number[] = [];
  const upstream: ModelUpstream = await modelUpstream(new PromptCache(TTL_MS));
  const clock = { now: 0 };
  await withProxy(run, upstream.url, false, clock, async (proxy) => {
    for (const ex of run.exchanges.slice(0, 6)) {
      clock.now = Date.parse(ex.time);
      for (const path of ['direct', 'proxy'] as const) {
        upstream.next = { reply: ex.reply ?? Buffer.alloc(0), now: clock.now, pauseMs: STREAM_PAUSE_MS };
        const r = await post(path === 'direct' ? upstream.url : proxy.url, ex, path === 'direct' ? `${ex.session}-direct` : ex.session);
        (path === 'direct' ? direct : proxied).push(r.firstByteMs);
      }
    }
  });
  await upstream.close();
  return { direct, proxy: proxied };
}

async function latency(run: RecordedRun): Promise<{ direct: number[]; proxy: number[] }> {
  const direct: number[] = [];
  const proxied: number[] = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    const upstream: ModelUpstream = await modelUpstream(new PromptCache(TTL_MS));
    const clock = { now: 0 };
    await withProxy(run, upstream.url, false, clock, async (proxy) => {
      for (const [i, ex] of run.exchanges.entries()) {
        clock.now = Date.parse(ex.time);
        // Alternate which goes first, so neither always meets a warmer machine.
        const order = (i + round) % 2 === 0 ? (['direct', 'proxy'] as const) : (['proxy', 'direct'] as const);
        for (const path of order) {
          upstream.next = { reply: ex.reply ?? Buffer.alloc(0), now: clock.now };
          const r = await post(path === 'direct' ? upstream.url : proxy.url, ex, path === 'direct' ? `${ex.session}-direct` : ex.session);
          (path === 'direct' ? direct : proxied).push(r.ms);
        }
      }
    });
    await upstream.close();
  }
  return { direct, proxy: proxied };
}

async function memoryPerConversation(run: RecordedRun): Promise<number | null> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  const upstream = await modelUpstream(new PromptCache(TTL_MS));
  const clock = { now: 0 };
  try {
    return await withProxy(run, upstream.url, false, clock, async (proxy) => {
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let c = 0; c < MEMORY_CONVERSATIONS; c++) {
        for (const ex of run.exchanges) {
          clock.now = Date.parse(ex.time);
          upstream.next = { reply: ex.reply ?? Buffer.alloc(0), now: clock.now };
          await post(proxy.url, ex, `${ex.session}-${c}`);
        }
      }
      upstream.usages.length = 0;
      gc();
      return (process.memoryUsage().heapUsed - before) / MEMORY_CONVERSATIONS;
    });
  } finally {
    await upstream.close();
  }
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const pad = (s: string | number, n: number): string => String(s).padStart(n);

async function main(): Promise<void> {
  const rows: TokenRow[] = [];
  const latencies: { run: string; direct: number[]; proxy: number[] }[] = [];
  const streams: { run: string; direct: number[]; proxy: number[] }[] = [];
  const memory: { run: string; bytes: number | null }[] = [];
  for (const name of RECORDED_RUNS) {
    const run = recordedRun(name);
    const direct = await tokensFor(run, 'direct');
    const directBreaks = breaks(run, direct.usages).length;
    for (const strategy of ['direct', 'proxy', 'evict-now'] as const) {
      const r = strategy === 'direct' ? direct : await tokensFor(run, strategy);
      const sum = (k: keyof ModelUsage): number => r.usages.reduce((n, u) => n + u[k], 0);
      const input = sum('input_tokens');
      const read = sum('cache_read_input_tokens');
      const write = sum('cache_creation_input_tokens');
      rows.push({ run: name, strategy, input, read, write, cost: input + READ * read + WRITE * write, firstRemoval: r.firstRemoval, breaksCaused: breaks(run, r.usages).length - directBreaks, gaps: idleGaps(run), removals: r.removals });
    }
    latencies.push({ run: name, ...(await latency(run)) });
    streams.push({ run: name, ...(await streaming(run)) });
    memory.push({ run: name, bytes: await memoryPerConversation(run) });
  }

  console.log(`\nTokens the provider bills, by way of sending (cache lifetime ${TTL_MS / 1000} s on the recorded clock; cost = input + ${READ}×read + ${WRITE}×write)\n`);
  console.log(`${'run'.padEnd(24)} ${'sent'.padEnd(10)} ${pad('input', 8)} ${pad('cache read', 11)} ${pad('cache write', 12)} ${pad('cost', 9)} ${pad('vs direct', 10)} ${pad('removals', 9)} ${pad('1st at', 7)} ${pad('breaks/gap', 11)}`);
  for (const r of rows) {
    const base = rows.find((x) => x.run === r.run && x.strategy === 'direct') as TokenRow;
    const delta = r.strategy === 'direct' ? '' : `${(((r.cost - base.cost) / base.cost) * 100).toFixed(1)} %`;
    console.log(
      `${r.run.padEnd(24)} ${r.strategy.padEnd(10)} ${pad(r.input, 8)} ${pad(r.read, 11)} ${pad(r.write, 12)} ${pad(Math.round(r.cost), 9)} ${pad(delta, 10)} ${pad(r.removals, 9)} ${pad(r.firstRemoval ?? '–', 7)} ${pad(r.strategy === 'direct' ? '–' : (r.breaksCaused / r.gaps).toFixed(2), 11)}`,
    );
  }
  console.log('\n(requests until the first removal: "1st at" is the request that first carried a tombstone; breaks/gap: warm cache breaks the way of sending caused, per idle gap)');

  console.log(`\nLatency per request, request to last byte (${LATENCY_ROUNDS} rounds, interleaved; ms)\n`);
  console.log(`${'run'.padEnd(24)} ${pad('direct p50', 11)} ${pad('proxy p50', 10)} ${pad('added p50', 10)} ${pad('direct p99', 11)} ${pad('proxy p99', 10)} ${pad('added p99', 10)} ${pad('ratio p50', 10)}`);
  for (const l of latencies) {
    const d50 = pct(l.direct, 50);
    const p50 = pct(l.proxy, 50);
    const d99 = pct(l.direct, 99);
    const p99 = pct(l.proxy, 99);
    console.log(`${l.run.padEnd(24)} ${pad(d50.toFixed(2), 11)} ${pad(p50.toFixed(2), 10)} ${pad((p50 - d50).toFixed(2), 10)} ${pad(d99.toFixed(2), 11)} ${pad(p99.toFixed(2), 10)} ${pad((p99 - d99).toFixed(2), 10)} ${pad((p50 / d50).toFixed(2) + '×', 10)}`);
  }

  console.log(`\nStreaming: time to the first byte of a reply whose first event comes at once and the rest ${STREAM_PAUSE_MS} ms later (median, ms; a proxy that held the reply until its end would be past ${STREAM_PAUSE_MS})\n`);
  for (const l of streams) {
    const d = pct(l.direct, 50);
    const p = pct(l.proxy, 50);
    console.log(`${l.run.padEnd(24)} direct ${d.toFixed(2)}  proxy ${p.toFixed(2)}  ${p < STREAM_PAUSE_MS ? 'streamed as it came' : 'held until the reply ended'}`);
  }

  console.log(`\nMemory per proxied conversation (${MEMORY_CONVERSATIONS} conversations, every request of the run each)\n`);
  for (const m of memory) console.log(`${m.run.padEnd(24)} ${m.bytes === null ? 'run with node --expose-gc' : `${(m.bytes / 1024).toFixed(1)} KiB`}`);
  const saved = rows.filter((r) => r.strategy === 'proxy');
  console.log(`\nIn input-token equivalents the proxy saved ${saved.map((r) => `${humanTokens(Math.round((rows.find((x) => x.run === r.run && x.strategy === 'direct') as TokenRow).cost - r.cost))} (${r.run})`).join(', ')}.`);
}

await main();
