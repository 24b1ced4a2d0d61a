// The provider as `npm run bench:proxy` sees it: an HTTP server that answers each recorded request
// with its recorded reply, but with the usage a prompt cache would report for the bytes it actually
// got. The cache model is the one the offline harness's mock uses (and docs/proxy.md describes): the
// request is laid out as tools, system blocks and message blocks; a token is four characters; every
// cache marker writes the prefix up to it; a request reads the longest prefix written before that is
// still alive; an entry lives `ttlMs` after it was last written or read.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function blockText(b: Json): string {
  if (typeof b === 'string') return b;
  if (!isObj(b)) return '';
  switch (b['type']) {
    case 'text':
      return String(b['text'] ?? '');
    case 'thinking':
      return String(b['thinking'] ?? '');
    case 'tool_use':
      return `${String(b['name'])}${JSON.stringify(b['input'] ?? {})}`;
    case 'tool_result': {
      const c = b['content'];
      return typeof c === 'string' ? c : Array.isArray(c) ? c.map(blockText).join('') : '';
    }
    default:
      return JSON.stringify(b);
  }
}

function withoutMarker(o: Obj): Obj {
  const { cache_control: _drop, ...rest } = o;
  return rest;
}

/** The request as the cache sees it: one entry per tool, system block and message block, with its cache marker. */
function layout(body: Obj): { s: string; marker: boolean }[] {
  const out: { s: string; marker: boolean }[] = [];
  for (const t of Array.isArray(body['tools']) ? body['tools'] : []) if (isObj(t)) out.push({ s: JSON.stringify(withoutMarker(t)), marker: 'cache_control' in t });
  const system = body['system'];
  if (typeof system === 'string') out.push({ s: system, marker: false });
  else if (Array.isArray(system)) for (const b of system) out.push({ s: blockText(b), marker: isObj(b) && 'cache_control' in b });
  for (const m of Array.isArray(body['messages']) ? body['messages'] : []) {
    if (!isObj(m)) continue;
    const content = typeof m['content'] === 'string' ? [{ type: 'text', text: m['content'] }] : Array.isArray(m['content']) ? m['content'] : [];
    content.forEach((b, i) => out.push({ s: (i === 0 ? `${String(m['role'])}:` : '') + blockText(b), marker: isObj(b) && 'cache_control' in b }));
  }
  return out;
}

const tokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

export interface ModelUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** The prompt cache of one provider account, on a clock the benchmark moves. */
export class PromptCache {
  private readonly entries = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly ttlMs: number) {}

  usage(body: Obj, now: number): ModelUsage {
    const segs = layout(body);
    let h = createHash('sha1').update(String(body['model'] ?? '')).digest('hex');
    let chars = 0;
    const prefix: { h: string; tokens: number }[] = [];
    let last = -1;
    segs.forEach((sg, i) => {
      h = createHash('sha1').update(h).update(sg.s).digest('hex');
      chars += sg.s.length;
      prefix.push({ h, tokens: tokens(chars) });
      if (sg.marker) last = i;
    });
    const total = tokens(chars) + 3;
    if (last < 0) return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    let read = 0;
    for (let i = last; i >= 0; i--) {
      const e = this.entries.get(prefix[i]?.h ?? '');
      if (!e) continue;
      if (now - e.at > this.ttlMs) {
        this.entries.delete(prefix[i]?.h ?? '');
        continue;
      }
      e.at = now;
      read = e.tokens;
      break;
    }
    segs.forEach((sg, i) => {
      const p = prefix[i];
      if (sg.marker && p) this.entries.set(p.h, { tokens: p.tokens, at: now });
    });
    const upTo = prefix[last]?.tokens ?? 0;
    return { input_tokens: Math.max(1, total - upTo), cache_creation_input_tokens: Math.max(0, upTo - read), cache_read_input_tokens: read };
  }
}

/** A recorded reply with the usage of its two usage-bearing events replaced. */
export function withUsage(reply: Buffer, u: ModelUsage): Buffer {
  const lines = reply.toString('utf8').split('\n');
  const out = lines.map((line) => {
    if (!line.startsWith('data:')) return line;
    const e = JSON.parse(line.slice(5)) as Obj;
    if (e['type'] === 'message_start' && isObj(e['message']) && isObj(e['message']['usage'])) {
      e['message']['usage'] = { ...e['message']['usage'], ...u, cache_creation: { ephemeral_5m_input_tokens: u.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 } };
      return `data: ${JSON.stringify(e)}`;
    }
    if (e['type'] === 'message_delta' && isObj(e['usage'])) {
      e['usage'] = { ...e['usage'], ...u };
      return `data: ${JSON.stringify(e)}`;
    }
    return line;
  });
  return Buffer.from(out.join('\n'), 'utf8');
}

export interface ModelUpstream {
  url: string;
  /** Usage of every `/v1/messages` request answered, in order. */
  usages: ModelUsage[];
  /**
   * The reply for the next request (set by the benchmark before it sends one). `pauseMs`: the first
   * event is written at once and the rest that long after, as a model streams (to see the proxy pass
   * the first bytes on before the reply ends).
   */
  next: { reply: Buffer; now: number; pauseMs?: number } | null;
  close(): Promise<void>;
}

export async function modelUpstream(cache: PromptCache): Promise<ModelUpstream> {
  const state: ModelUpstream = { url: '', usages: [], next: null, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const next = state.next;
      if (!next) {
        res.writeHead(500);
        res.end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj;
      const u = cache.usage(body, next.now);
      state.usages.push(u);
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      const reply = withUsage(next.reply, u);
      const cut = reply.indexOf('\n\n');
      if (!next.pauseMs || cut < 0) return void res.end(reply);
      res.write(reply.subarray(0, cut + 2));
      setTimeout(() => res.end(reply.subarray(cut + 2)), next.pauseMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}
