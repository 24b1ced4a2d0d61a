// Test helpers: a recorded Claude Code run replayed through the proxy. The requests are the ones the
// real client sent; the upstream answers each with the reply the client really got (it stands in for
// the provider, the proxy is what is tested); the clock is the recorded one unless a test moves it.
import http, { type IncomingHttpHeaders } from 'node:http';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { defaultAgents } from '@glassbox/agents';
import type { RecordedExchange, RecordedRun } from '../request-anthropic/recorded';
import { ProxyArchive, startProxy, type RunningProxy, type DecideSettings } from '@glassbox/proxy';

export const API_KEY = 'sk-ant-api03-test-key-that-must-go-upstream-only-0000';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Upstream {
  url: string;
  received: Received[];
  /** Answers the next request with this instead of the recorded reply (once). */
  override(answer: (req: Received, res: http.ServerResponse) => void): void;
  close(): Promise<void>;
}

/** A stand-in for the provider that gives each `POST /v1/messages` the recorded reply of its turn. */
export async function replayUpstream(exchanges: readonly RecordedExchange[]): Promise<Upstream> {
  const received: Received[] = [];
  const overrides: ((req: Received, res: http.ServerResponse) => void)[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      const o = overrides.shift();
      if (o) return o(r, res);
      if (req.method !== 'POST' || !r.url.startsWith('/v1/messages?') && r.url !== '/v1/messages') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ echo: r.url, bytes: r.body.length }));
      }
      const ex = exchanges[next++];
      if (!ex?.reply) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end('{"type":"error","error":{"type":"api_error","message":"no recorded reply"}}');
      }
      res.writeHead(ex.status ?? 200, { 'content-type': ex.contentType ?? 'text/event-stream; charset=utf-8' });
      res.end(ex.reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    override: (a) => overrides.push(a),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface Replay {
  proxy: RunningProxy;
  upstream: Upstream;
  archive: ProxyArchive;
  /** The working directory's files as the run left them (a private copy, for the disk's proofs). */
  repo: string;
  log: string[];
  clock: { now: number };
  close(): Promise<void>;
}

export async function startReplay(run: RecordedRun, settings: Partial<DecideSettings> = {}, options: { maxAnalysedBytes?: number; upstream?: string; archiveRoot?: string } = {}): Promise<Replay> {
  const upstream = await replayUpstream(run.exchanges);
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-proxy-test-'));
  const repo = join(dir, 'repo');
  cpSync(run.projectAfter, repo, { recursive: true });
  const archive = new ProxyArchive(options.archiveRoot ?? join(dir, 'archive'));
  const log: string[] = [];
  const clock = { now: Date.parse(run.exchanges[0]?.time ?? '2026-01-01T00:00:00Z') };
  const proxy = await startProxy({
    upstream: options.upstream ?? upstream.url,
    host: '127.0.0.1',
    port: 0,
    archive,
    maxAnalysedBytes: options.maxAnalysedBytes ?? 64 * 1024 * 1024,
    clock: () => clock.now,
    log: (l) => log.push(l),
    settings: {
      ports: nodeAnalysisPorts(),
      mappings: { [run.cwd]: repo },
      prices: defaultAgents().byId('claude-code').format.prices,
      protectTail: 3,
      horizon: 20,
      minimumSavings: 200,
      evictNow: false,
      cacheTtlMs: 4000,
      ...settings,
    },
  });
  return {
    proxy,
    upstream,
    archive,
    repo,
    log,
    clock,
    close: async () => {
      await proxy.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ClientReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Sends one recorded request to the proxy as the client did (its session header, an API key) and reads the whole reply. */
export function sendAsClient(proxyUrl: string, ex: Pick<RecordedExchange, 'url' | 'session' | 'body'>, method = 'POST'): Promise<ClientReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' };
    if (ex.session) headers['x-claude-code-session-id'] = ex.session;
    const req = http.request(proxyUrl + ex.url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(ex.body);
  });
}

/**
 * Replays every request of the run in order at its recorded time (or the time `timeOf` gives) and
 * returns what reached the upstream for each, and what the client got back.
 */
export async function replayAll(r: Replay, run: RecordedRun, timeOf: (ex: RecordedExchange, i: number) => number = (ex) => Date.parse(ex.time)): Promise<{ sent: Buffer[]; replies: ClientReply[] }> {
  const sent: Buffer[] = [];
  const replies: ClientReply[] = [];
  for (const [i, ex] of run.exchanges.entries()) {
    r.clock.now = timeOf(ex, i);
    const before = r.upstream.received.length;
    replies.push(await sendAsClient(r.proxy.url, ex));
    const got = r.upstream.received.slice(before).filter((x) => x.method === 'POST');
    sent.push(got[got.length - 1]?.body ?? Buffer.alloc(0));
  }
  return { sent, replies };
}
