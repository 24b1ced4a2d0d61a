import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { EVENT_CHANNELS, MAX_UPLOAD_BYTES, type EventChannel, type EventMap } from '@glassbox/contract';
import type { EngineHost } from './host';

/** The CSP of every page served: the same as the Electron window's (no inline script, no remote content). */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const COOKIE = 'glassbox_token';
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

/**
 * Browser mode: the renderer and the engine host over HTTP on 127.0.0.1 only. Every request must carry
 * the per-run token (in the URL the first time, then as a SameSite=Strict cookie or the X-Glassbox-Token
 * header); Host must name this server and Origin, when sent, must be this server (DNS rebinding and
 * cross-site requests are refused).
 */
export function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  const sse = new Set<ServerResponse>();
  let port = 0;

  const hasToken = (req: IncomingMessage, url: URL): boolean => {
    const candidates = [url.searchParams.get('token'), header(req, 'x-glassbox-token'), cookie(req, COOKIE)];
    return candidates.some((c) => {
      if (!c) return false;
      const b = Buffer.from(c);
      return b.length === tokenBuf.length && timingSafeEqual(b, tokenBuf);
    });
  };

  const unsubscribe = options.host.onEvent(<E extends EventChannel>(event: E, payload: EventMap[E]) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of sse) res.write(frame);
  });
  const keepAlive = setInterval(() => {
    for (const res of sse) res.write(': keep-alive\n\n');
  }, 15_000);
  keepAlive.unref();

  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `internal error: ${(error as Error).message}`);
      else res.end();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!allowedHosts.includes(header(req, 'host') ?? '')) return send(res, 421, 'text/plain', 'wrong Host');
    const origin = header(req, 'origin');
    if (origin && !allowedHosts.some((h) => origin === `http://${h}`)) return send(res, 403, 'text/plain', 'cross-origin request refused');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (!hasToken(req, url)) return send(res, 403, 'text/plain; charset=utf-8', 'Glassbox: this address needs the token printed by `glassbox ui`.');

    if (url.pathname.startsWith('/api/invoke/') && req.method === 'POST') {
      const channel = decodeURIComponent(url.pathname.slice('/api/invoke/'.length));
      const body = await readBody(req, MAX_UPLOAD_BYTES * 2);
      if (body === null) return json(res, 413, { ok: false, error: { code: 'bad_args', message: 'The request is too large.' } });
      let args: unknown;
      try {
        args = body.length ? JSON.parse(body) : {};
      } catch {
        return json(res, 400, { ok: false, error: { code: 'bad_args', message: 'The request body is not JSON.' } });
      }
      return json(res, 200, await options.host.handle(channel, args));
    }
    if (url.pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-content-type-options': 'nosniff' });
      res.write(`: connected ${EVENT_CHANNELS.join(' ')}\n\n`);
      sse.add(res);
      req.on('close', () => sse.delete(res));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed');
    return serveStatic(url, res);
  }

  function serveStatic(url: URL, res: ServerResponse): void {
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = normalize(join(options.staticDir, rel));
    if (!file.startsWith(normalize(options.staticDir) + sep) || !existsSync(file) || !statSync(file).isFile()) {
      return send(res, 404, 'text/plain', 'not found');
    }
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (file.endsWith('.html')) {
      headers['content-security-policy'] = CSP;
      headers['x-frame-options'] = 'DENY';
      // The token moves from the URL into a cookie only this origin sends.
      headers['set-cookie'] = `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
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

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  const raw = header(req, 'cookie');
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff' });
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolvePromise(over ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
