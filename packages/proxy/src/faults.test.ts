import http from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordedRun } from '@glassbox/test-support/request-anthropic/recorded';
import { proxyStatus } from './status';
import { API_KEY, replayAll, sendAsClient, startReplay, type Replay } from '@glassbox/test-support/proxy/replay';

const run = recordedRun('31-proxy-live-2.1.332');
const TOMB = '[glassbox: removed ';

let replay: Replay | null = null;
afterEach(async () => {
  await replay?.close();
  replay = null;
});

/** The first request of the run the proxy rewrites (the first after the first idle gap). */
function firstAfterGap(): number {
  for (let i = 1; i < run.exchanges.length; i++) {
    if (Date.parse(run.exchanges[i]?.time ?? '') - Date.parse(run.exchanges[i - 1]?.time ?? '') > 4000) return i;
  }
  throw new Error('the run has no idle gap');
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe('the proxy fails open', () => {
  it('sends the client’s own bytes once when the upstream refuses a rewritten request, and suspends the conversation', async () => {
    replay = await startReplay(run);
    const r = replay;
    const gap = firstAfterGap();
    let refused = 0;
    // The upstream refuses the first request that carries a tombstone, and answers the retry as recorded.
    const refuseOnce = (): void =>
      r.upstream.override((req, res) => {
        if (!req.body.includes(TOMB)) throw new Error('the refused request should be the rewritten one');
        refused++;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"type":"error","error":{"type":"invalid_request_error","message":"refused for the test"}}');
      });
    const { sent, replies } = await replayAll(r, run, (ex, i) => {
      if (i === gap) refuseOnce();
      return Date.parse(ex.time);
    });
    expect(refused).toBe(1);
    for (const [i, ex] of run.exchanges.entries()) {
      // Every request reached the upstream as the client sent it (the refused one on its second try), and every reply was the recorded one.
      expect(sent[i]?.equals(ex.body), `request ${i + 1}`).toBe(true);
      expect(replies[i]?.status).toBe(200);
    }
    const [status] = proxyStatus(r.archive);
    expect(status?.suspended).toEqual({ request: gap + 1, reason: 'the upstream refused a rewritten request (400 invalid_request_error)' });
    expect(status?.failOpens).toBe(1);
    expect(status?.savedTokens).toBe(0);
    expect(r.log.some((l) => l.includes('rewrites suspended'))).toBe(true);
  });

  it('passes a body too large to read, a malformed one and other endpoints through unchanged, and keeps no record of them', async () => {
    replay = await startReplay(run, {}, { maxAnalysedBytes: 10_000 });
    const r = replay;
    const big = run.exchanges[0];
    if (!big) throw new Error('no exchange');
    const reply = await sendAsClient(r.proxy.url, big);
    expect(reply.status).toBe(200);
    expect(r.upstream.received[0]?.body.equals(big.body)).toBe(true);
    const malformed = Buffer.from('{"model": "claude-opus-4-8", "messages": [{"role": "user"', 'utf8');
    const bad = await sendAsClient(r.proxy.url, { url: '/v1/messages?beta=true', session: null, body: malformed });
    expect(r.upstream.received[1]?.body.equals(malformed)).toBe(true);
    expect(bad.body.equals(run.exchanges[1]?.reply ?? Buffer.alloc(0))).toBe(true);
    const count = Buffer.from('{"model":"claude-opus-4-8","messages":[{"role":"user","content":"count me"}]}', 'utf8');
    const counted = await sendAsClient(r.proxy.url, { url: '/v1/messages/count_tokens?beta=true', session: null, body: count });
    expect(r.upstream.received[2]?.body.equals(count)).toBe(true);
    expect(r.upstream.received[2]?.url).toBe('/v1/messages/count_tokens?beta=true');
    expect(JSON.parse(counted.body.toString('utf8'))).toEqual({ echo: '/v1/messages/count_tokens?beta=true', bytes: count.length });
    const models = await sendAsClient(r.proxy.url, { url: '/v1/models', session: null, body: Buffer.alloc(0) }, 'GET');
    expect(models.status).toBe(200);
    expect(r.upstream.received[3]?.method).toBe('GET');
    expect(r.archive.conversations()).toEqual([]);
    expect(r.log.join('\n')).toContain('streamed through unread');
  });

  it('answers 502 at once when the upstream cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    replay = await startReplay(run, {}, { upstream: `http://127.0.0.1:${port}` });
    const reply = await sendAsClient(replay.proxy.url, run.exchanges[0] ?? { url: '/', session: null, body: Buffer.alloc(0) });
    expect(reply.status).toBe(502);
    expect(JSON.parse(reply.body.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('could not be reached (ECONNREFUSED)') } });
  });

  it('cuts the client’s connection when the upstream cuts its own', async () => {
    replay = await startReplay(run);
    replay.upstream.override((_req, res) => res.socket?.destroy());
    await expect(sendAsClient(replay.proxy.url, run.exchanges[0] ?? { url: '/', session: null, body: Buffer.alloc(0) })).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});

describe('the proxy passes replies through as they come', () => {
  it('forwards the first event of a stream before the upstream has sent the rest', async () => {
    replay = await startReplay(run);
    const r = replay;
    let finish: (() => void) | null = null;
    r.upstream.override((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write('event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":3}}}\n\n');
      finish = () => res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    });
    const first = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${r.proxy.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': API_KEY } }, (res) => {
        res.once('data', (c: Buffer) => {
          resolve(c.toString('utf8'));
          finish?.();
        });
        res.resume();
      });
      req.on('error', reject);
      req.end(run.exchanges[0]?.body);
    });
    expect(first.startsWith('event: message_start')).toBe(true);
    expect(first).not.toContain('message_stop');
  });
});

describe('what the proxy keeps', () => {
  it('sends the API key upstream only, and keeps no key, header or request body on disk; its files are private', async () => {
    replay = await startReplay(run);
    const r = replay;
    await replayAll(r, run);
    expect(r.upstream.received.every((x) => x.headers['x-api-key'] === API_KEY)).toBe(true);
    const files = filesUnder(r.archive.root);
    const removed = new Set(r.archive.conversations().flatMap((c) => r.archive.removals(c).map((x) => x.sha256)));
    const prompt = 'Tidy the project: check the inventory code';
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text.includes(API_KEY), f).toBe(false);
      expect(text.includes('x-api-key'), f).toBe(false);
      // Objects are the removed payloads and nothing else; records hold no text of the conversation.
      if (f.includes(`${join('archive', 'objects')}`)) expect(removed.has(f.split('/').pop() ?? '')).toBe(true);
      else expect(text.includes(prompt), f).toBe(false);
      expect(statSync(f).mode & 0o077, f).toBe(0);
    }
    for (const d of [r.archive.root, r.archive.dir]) expect(statSync(d).mode & 0o077).toBe(0);
    expect(r.log.join('\n').includes(API_KEY)).toBe(false);
  });
});
