import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conversationKey, readRequest, type ResponseFacts } from '@glassbox/request-anthropic';
import type { ProxyArchive } from './archive';
import type { DecideSettings } from './decide';
import { Conversations } from './conversations';
import { answerUpstreamError, forwardHeaders, makeUpstream, type Upstream } from './upstream';
import { relay } from './relay';
import { handleRewritable, type Exchange, type OnReply } from './exchange';

export interface ProxyOptions {
  upstream: string;
  /** Where to listen; 127.0.0.1 unless told otherwise (the CLI refuses other interfaces without a flag). */
  host: string;
  /** 0 picks a free port. */
  port: number;
  settings: DecideSettings;
  archive: ProxyArchive;
  /** Request bodies larger than this are streamed through unread. */
  maxAnalysedBytes: number;
  /** Milliseconds since the epoch; tests move it. */
  clock?: () => number;
  /** One line per decision or problem; never a header, never a body. */
  log?: (line: string) => void;
}

export interface ProxyTotals {
  requests: number;
  rewritten: number;
  removals: number;
  savedTokens: number;
  cacheBreaks: number;
  failOpens: number;
  conversations: number;
}

export interface RunningProxy {
  url: string;
  totals(): ProxyTotals;
  close(): Promise<void>;
}

const MESSAGES = '/v1/messages';

/**
 * The local proxy (docs/proxy.md): `POST /v1/messages` is read, and rewritten when the rules and
 * the cache say so; every other request, and every reply, goes through as it is. It listens on the
 * given host only and forwards only to the configured upstream.
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = makeUpstream(options.upstream);
  options.archive.ensure();
  const clock = options.clock ?? Date.now;
  const log = options.log ?? (() => {});
  const conversations = new Conversations(options.archive, options.settings, log);
  const totals: ProxyTotals = { requests: 0, rewritten: 0, removals: 0, savedTokens: 0, cacheBreaks: 0, failOpens: 0, conversations: 0 };
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const pathname = path.split('?')[0];
    if (req.method === 'POST' && pathname === MESSAGES) {
      totals.requests++;
      void messages(req, res).catch((error: unknown) => {
        log(`internal error: ${(error as Error).message}`);
        if (!res.headersSent) res.destroy();
      });
    } else passThrough(upstream, req, res);
  });
  server.keepAliveTimeout = 60_000;

  async function messages(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await collect(req, options.maxAnalysedBytes);
    if (body.kind === 'overflow') {
      log(`a request body over ${options.maxAnalysedBytes} bytes: streamed through unread`);
      totals.failOpens++;
      streamThrough(upstream, req, res, body.head);
      return;
    }
    const reading = readRequest(body.bytes);
    if (!reading.ok) {
      totals.failOpens++;
      log(`a request sent as the client sent it: ${reading.reason}`);
      send(upstream, req, res, body.bytes, null);
      return;
    }
    const header = req.headers['x-claude-code-session-id'];
    const key = conversationKey(reading.request, typeof header === 'string' ? header : null);
    if (key === null) {
      send(upstream, req, res, body.bytes, null);
      return;
    }
    const conversation = conversations.get(key, reading.request, typeof header === 'string' ? header : null, clock());
    if (conversation.fresh) totals.conversations++;
    const exchange: Exchange = {
      request: reading.request,
      state: conversation.state,
      now: clock(),
      send: (bytes, onReply, failed) => send(upstream, req, res, bytes, onReply, failed),
    };
    handleRewritable(exchange, conversations, totals, clock);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    totals: () => ({ ...totals }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.close();
      }),
  };
}

type Collected = { kind: 'whole'; bytes: Buffer } | { kind: 'overflow'; head: Buffer[] };

/** The body, whole, unless it grows past `limit`: then what came so far, with the rest left in the stream. */
function collect(req: IncomingMessage, limit: number): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      chunks.push(c);
      size += c.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        req.pause();
        resolve({ kind: 'overflow', head: chunks });
      }
    };
    const onEnd = (): void => resolve({ kind: 'whole', bytes: Buffer.concat(chunks) });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/** Sends these bytes as the client's request and hands the reply to `onReply` (or straight to the client). */
function send(upstream: Upstream, req: IncomingMessage, res: ServerResponse, bytes: Buffer, onReply: OnReply | null, failed?: () => void): void {
  const up = upstream.request(req.method ?? 'POST', req.url ?? '/', forwardHeaders(req.headers, bytes.length));
  const abort = (): void => {
    if (!res.writableFinished) up.destroy();
  };
  res.on('close', abort);
  up.on('error', (error: NodeJS.ErrnoException) => {
    answerUpstreamError(error, upstream.url, res);
    failed?.();
  });
  up.on('response', (reply) => {
    res.off('close', abort);
    const pass = (done: (facts: ResponseFacts | null, ok: boolean) => void): void => relay(reply, res, done);
    if (onReply) onReply(reply, pass);
    else pass(() => {});
  });
  up.end(bytes);
}

/** A body too big to read: what was read so far, then the rest as it comes. */
function streamThrough(upstream: Upstream, req: IncomingMessage, res: ServerResponse, head: Buffer[]): void {
  const up = upstream.request(req.method ?? 'POST', req.url ?? '/', forwardHeaders(req.headers, null));
  up.on('error', (error: NodeJS.ErrnoException) => answerUpstreamError(error, upstream.url, res));
  up.on('response', (reply) => relay(reply, res, () => {}));
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  for (const c of head) up.write(c);
  req.pipe(up);
  req.resume();
}

/** Any other endpoint (count_tokens, models, a health check): request and reply untouched, streamed. */
function passThrough(upstream: Upstream, req: IncomingMessage, res: ServerResponse): void {
  const up = upstream.request(req.method ?? 'GET', req.url ?? '/', forwardHeaders(req.headers, null));
  up.on('error', (error: NodeJS.ErrnoException) => answerUpstreamError(error, upstream.url, res));
  up.on('response', (reply) => relay(reply, res, () => {}));
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  req.pipe(up);
}

