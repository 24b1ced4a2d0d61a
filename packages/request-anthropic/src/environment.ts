import { isObject, type Json } from '@glassbox/core';
import type { ReadRequest } from './request';

/**
 * What the request itself says about where it runs and how its tools behave. Claude Code states its
 * working directory in an environment section (`Primary working directory: /path` in 2.x, in the
 * system prompt (2.1.197) or in a system message (2.1.332); `Working directory: /path` in 1.x's
 * `<env>` block), and the Read tool's description states how many lines a read returns by default.
 */
export interface RequestEnvironment {
  /** The one working directory the request names; null when it names none or several. */
  cwd: string | null;
  /** Lines a Read without offset/limit returns at most; null when the tool's description does not say. */
  readDefaultLines: number | null;
}

const CWD_LINE = /^[ \t]*-?[ \t]*(?:Primary working directory|Working directory):[ \t]*(\S.*?)[ \t]*$/gm;
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/])/;
const READ_LIMIT = /\bup to (\d[\d,]*) lines\b/i;

export function requestEnvironment(request: ReadRequest): RequestEnvironment {
  const dirs = new Set<string>();
  for (const text of systemTexts(request)) for (const m of text.matchAll(CWD_LINE)) if (m[1]) dirs.add(m[1]);
  const only = dirs.size === 1 ? ([...dirs][0] as string) : null;
  return { cwd: only !== null && ABSOLUTE.test(only) ? only : null, readDefaultLines: readLimit(request.body['tools']) };
}

/** The system prompt's text blocks and the text of system-role messages. */
function systemTexts(request: ReadRequest): string[] {
  const out: string[] = [];
  const system = request.body['system'];
  if (typeof system === 'string') out.push(system);
  else if (Array.isArray(system)) for (const b of system) if (isObject(b) && typeof b['text'] === 'string') out.push(b['text']);
  for (const m of request.messages) {
    if (m.role !== 'system') continue;
    if (m.text !== null) out.push(m.text);
    for (const b of m.blocks) if (typeof b.value['text'] === 'string') out.push(b.value['text']);
  }
  return out;
}

function readLimit(tools: Json | undefined): number | null {
  if (!Array.isArray(tools)) return null;
  for (const t of tools) {
    if (!isObject(t) || t['name'] !== 'Read' || typeof t['description'] !== 'string') continue;
    const m = READ_LIMIT.exec(t['description']);
    const n = m?.[1] ? Number(m[1].replace(/,/g, '')) : NaN;
    return Number.isInteger(n) && n > 0 ? n : null;
  }
  return null;
}

/**
 * The cache lifetime the request's own markers ask for (`cache_control: {ttl: "1h"}`), before any
 * reply has shown which one the provider wrote: '1h' when any marker asks for it, '5m' when markers
 * name no lifetime, null without markers.
 */
export function cacheMarkerTtl(request: ReadRequest): '5m' | '1h' | null {
  let found: '5m' | '1h' | null = null;
  const visit = (v: Json | undefined): void => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (isObject(v)) {
      const cc = v['cache_control'];
      if (isObject(cc)) found = cc['ttl'] === '1h' ? '1h' : (found ?? '5m');
      const content = v['content'];
      if (Array.isArray(content)) visit(content);
    }
  };
  visit(request.body['system']);
  visit(request.body['tools']);
  const messages = request.body['messages'];
  if (Array.isArray(messages)) visit(messages.slice(-2));
  return found;
}
