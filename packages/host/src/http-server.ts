import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { EVENT_CHANNELS, MAX_UPLOAD_BYTES, rawJsonPieces, type EventChannel, type EventMap } from '@glassbox/contract';
import type { EngineHost } from './host';

/** The CSP of every page served: the same as the Electron window's (no inline script, no remote content). */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The header every API request carries the per-run token in. */
const TOKEN_HEADER = 'x-glassbox-token';
/** The cookie earlier builds set: cleared on every page load, and never accepted. */
const LEGACY_COOKIE = 'glassbox_token';
const MAX_BODY = MAX_UPLOAD_BYTES * 2;
const DISCARD_AFTER_REFUSAL = 16 * 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface UiServerOptions {
  host: EngineHost;
  /** The built renderer (index.html + assets). */
  staticDir: string;
  /** 0 for a random free port. */
  port?: number;
  token?: string;
}

export interface UiServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

class BadRequest extends Error {}

/**
 * Browser mode: the renderer and the engine host over HTTP on 127.0.0.1 only.
 *
 * Every API request (`/api/invoke/*`, `/api/events`) must carry the per-run token in the
 * X-Glassbox-Token header. The token is never a cookie: browsers send a host's cookies to every port
 * of it, so any other server on 127.0.0.1 would receive it. The page learns the token once from the
 * URL `glassbox ui` prints and keeps it in page memory (the renderer's api.ts). Static files (the
 * app's own code, no data) need no token. Host must name this server and Origin, when sent, must be
 * this server: DNS rebinding and cross-site requests are refused. See SECURITY.md.
 */
export function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  const sse = new Set<ServerResponse>();
  const staticRoot = normalize(options.staticDir);
  let port = 0;

  const hasToken = (req: IncomingMessage): boolean => {
    const given = header(req, TOKEN_HEADER);
    if (!given) return false;
    const b = Buffer.from(given);
    return b.length === tokenBuf.length && timingSafeEqual(b, tokenBuf);
  };

  const unsubscribe = options.host.onEvent(<E extends EventChannel>(event: E, payload: EventMap[E]) => {
    const frame = frameOf(event, payload);
    for (const res of sse) res.write(frame);
  });
  const keepAlive = setInterval(() => {
    for (const res of sse) res.write(': keep-alive\n\n');
  }, 15_000);
  keepAlive.unref();

  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.end();
      if (error instanceof BadRequest) return send(res, 400, 'text/plain; charset=utf-8', `bad request: ${error.message}`);
      send(res, 500, 'text/plain; charset=utf-8', 'internal error');
    });
  });
  // A request line Node cannot parse never reaches route(): answer it, do not just drop the socket.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!allowedHosts.includes(header(req, 'host') ?? '')) return send(res, 421, 'text/plain', 'wrong Host');
    const origin = header(req, 'origin');
    if (origin && !allowedHosts.some((h) => origin === `http://${h}`)) return send(res, 403, 'text/plain', 'cross-origin request refused');
    const url = parseUrl(req.url, port);
    const pathname = decodePath(url.pathname);

    if (pathname.startsWith('/api/')) {
      if (!hasToken(req)) {
        return json(res, 403, { ok: false, error: { code: 'refused', message: 'This request needs the token printed by `glassbox ui` (X-Glassbox-Token).' } });
      }
      if (pathname.startsWith('/api/invoke/') && req.method === 'POST') return invoke(pathname.slice('/api/invoke/'.length), req, res);
      if (pathname === '/api/events' && req.method === 'GET') return events(req, res);
      return send(res, 404, 'text/plain', 'not found');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed');
    return serveStatic(pathname, res);
  }

  async function invoke(channel: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, MAX_BODY);
    if (body === null) {
      // Say so, then discard (not keep) what is still coming for a while so the client can read the
      // answer (closing on unread bytes resets the connection first); a sender that goes on is cut off.
      res.setHeader('connection', 'close');
      json(res, 413, { ok: false, error: { code: 'bad_args', message: 'The request is too large.' } });
      let discarded = 0;
      req.on('data', (c: Buffer) => {
        discarded += c.length;
        if (discarded > DISCARD_AFTER_REFUSAL) req.destroy();
      });
      req.resume();
      return;
    }
    let args: unknown;
    try {
      args = body.length ? JSON.parse(body) : {};
    } catch {
      return json(res, 400, { ok: false, error: { code: 'bad_args', message: 'The request body is not JSON.' } });
    }
    // RawJson values (a big window a work thread serialised) are written as they are, between the
    // pieces of the answer around them: never decoded, copied or re-encoded on this thread.
    return jsonPieces(res, 200, rawJsonPieces(await options.host.handleWire(channel, args)));
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-content-type-options': 'nosniff' });
    res.write(`: connected ${EVENT_CHANNELS.join(' ')}\n\n`);
    // The host's state first, in the same turn as the stream joins the listeners: whatever the window
    // missed before this stream (a late connect, a reconnect) is in it, and every later event follows it.
    res.write(frameOf('host:sync', options.host.sync()));
    sse.add(res);
    req.on('close', () => sse.delete(res));
  }

  function serveStatic(pathname: string, res: ServerResponse): void {
    const rel = pathname === '/' ? 'index.html' : pathname.slice(1);
    const file = normalize(join(staticRoot, rel));
    if (!file.startsWith(staticRoot + sep) || !isFile(file)) return send(res, 404, 'text/plain', 'not found');
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (file.endsWith('.html')) {
      headers['content-security-policy'] = CSP;
      headers['x-frame-options'] = 'DENY';
      // Earlier builds kept the token in a cookie, which the browser sends to every port: drop it.
      headers['set-cookie'] = `${LEGACY_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`;
    }
    res.writeHead(200, headers);
    res.end(readFileSync(file));
  }

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
      resolvePromise({
        url: `http://127.0.0.1:${port}/?token=${token}`,
        port,
        token,
        close: () =>
          new Promise<void>((done) => {
            unsubscribe();
            clearInterval(keepAlive);
            for (const res of sse) res.end();
            sse.clear();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function frameOf<E extends EventChannel>(event: E, payload: EventMap[E]): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}

function parseUrl(raw: string | undefined, port: number): URL {
  // Only origin-form targets ("/path?query"): "//host/…" or "http://…" would change what URL parses.
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) throw new BadRequest('the request target must be a path');
  try {
    return new URL(raw, `http://127.0.0.1:${port}`);
  } catch {
    throw new BadRequest('the request target is not a URL');
  }
}

function decodePath(pathname: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new BadRequest('the path has a malformed %-escape');
  }
  if (decoded.includes('\0')) throw new BadRequest('the path holds a NUL byte');
  return decoded;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff' });
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  jsonPieces(res, status, [JSON.stringify(value)]);
}

function jsonPieces(res: ServerResponse, status: number, pieces: readonly (string | Uint8Array)[]): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  for (const piece of pieces) if (piece.length > 0) res.write(piece);
  res.end();
}

/** The body as text, or null as soon as it passes the limit (nothing past it is kept). */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const declared = Number(header(req, 'content-length') ?? 0);
  if (declared > limit) return Promise.resolve(null);
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        resolvePromise(null);
      } else chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolvePromise(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
