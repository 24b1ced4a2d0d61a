import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';

/**
 * The one place the proxy talks to: the configured upstream. Requests keep the client's headers
 * (its API key included, which goes nowhere else and is never logged) minus the hop-by-hop ones;
 * replies come back with theirs. Nothing follows a redirect.
 */
export interface Upstream {
  url: URL;
  request(method: string, path: string, headers: OutgoingHttpHeaders): http.ClientRequest;
  close(): void;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect']);

export function makeUpstream(raw: string): Upstream {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--upstream ${raw}: give an http or https URL`);
  const secure = url.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const base = url.pathname.replace(/\/+$/, '');
  return {
    url,
    request(method, path, headers) {
      const options = { method, host: url.hostname, port: url.port || (secure ? 443 : 80), path: base + path, headers: { ...headers, host: url.host }, agent };
      return secure ? https.request(options) : http.request(options);
    },
    close() {
      agent.destroy();
    },
  };
}

/** The client's headers as the upstream gets them; `bodyLength` replaces the client's length (null: keep it). */
export function forwardHeaders(incoming: IncomingHttpHeaders, bodyLength: number | null): OutgoingHttpHeaders {
  const drop = new Set(HOP_BY_HOP);
  const connection = incoming['connection'];
  if (typeof connection === 'string') for (const h of connection.split(',')) drop.add(h.trim().toLowerCase());
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) if (v !== undefined && !drop.has(k)) out[k] = v;
  if (bodyLength !== null) out['content-length'] = String(bodyLength);
  else if (incoming['content-length'] !== undefined) out['content-length'] = incoming['content-length'];
  else if (incoming['transfer-encoding'] !== undefined) out['transfer-encoding'] = 'chunked';
  return out;
}

/** The upstream's reply headers as the client gets them. */
export function replyHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) if (v !== undefined && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') out[k] = v;
  return out;
}

/** Errors that mean the upstream was never reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ERR_INVALID_URL', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);

/**
 * Tells the client what went wrong as the upstream would: an upstream that cannot be reached is a
 * 502 in the Messages API's error shape, right away; a connection the upstream cut is cut for the
 * client too (its own retry logic knows what to do with that).
 */
export function answerUpstreamError(error: NodeJS.ErrnoException, upstream: URL, res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy(error);
    return;
  }
  if (error.code && UNREACHABLE.has(error.code)) {
    const body = JSON.stringify({ type: 'error', error: { type: 'api_error', message: `glassbox proxy: the upstream ${upstream.origin} could not be reached (${error.code})` } });
    res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.socket?.destroy();
  res.destroy();
}

/** Reads a reply whole (small ones only: an error the proxy must look at). */
export function readAll(res: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    res.on('data', (c: Buffer) => {
      n += c.length;
      if (n <= limit) chunks.push(c);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}
