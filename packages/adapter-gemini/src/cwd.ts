import { isObject, str, type Json } from '@glassbox/core';
import { sha256Hex } from './hash';
import { partsOf, partsText } from './parts';
import type { ChatMeta, PlacedMessage } from './records';
import { SESSION_CONTEXT_TAG } from './rules';

const MAX_DEPTH = 24;

/**
 * The project root a chat belongs to. The file never names it, but every generation records its
 * SHA-256 (`projectHash`), so a candidate is proven by hashing it: the folders the session context
 * lists (0.39+), a subagent's `directories`, and the folders above every absolute path a tool call
 * named. The first candidate whose hash matches wins; with no match, the session context's first
 * folder (unproven), else null.
 */
export function findCwd(meta: ChatMeta, history: readonly PlacedMessage[]): string | null {
  const listed = [...meta.directories, ...contextFolders(history)];
  const candidates = [...listed, ...pathsOfCalls(history).flatMap(ancestors)];
  if (meta.projectHash) {
    const seen = new Set<string>();
    for (const c of candidates) {
      if (seen.has(c)) continue;
      seen.add(c);
      if (sha256Hex(c) === meta.projectHash) return c;
    }
  }
  return listed[0] ?? null;
}

/** The "Workspace Directories" the session context message lists. */
function contextFolders(history: readonly PlacedMessage[]): string[] {
  for (const m of history) {
    if (m.message['type'] !== 'user') continue;
    const text = partsText(partsOf(m.message['content']));
    if (!text.trimStart().startsWith(SESSION_CONTEXT_TAG)) continue;
    const at = text.indexOf('Workspace Directories:');
    if (at < 0) return [];
    const out: string[] = [];
    for (const line of text.slice(at).split('\n').slice(1)) {
      const m2 = /^\s+- (\/.*|[A-Za-z]:\\.*)$/.exec(line);
      if (!m2) break;
      out.push((m2[1] as string).trim());
    }
    return out;
  }
  return [];
}

/** Absolute paths in the arguments of recorded calls (legacy `toolCalls` and function-call parts). */
function pathsOfCalls(history: readonly PlacedMessage[]): string[] {
  const out: string[] = [];
  const take = (args: Json | undefined) => {
    if (!isObject(args)) return;
    for (const key of ['file_path', 'absolute_path', 'dir_path', 'path', 'directory']) {
      const v = str(args[key]);
      if (v && (v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v))) out.push(v);
    }
  };
  for (const m of history) {
    const calls = m.message['toolCalls'];
    if (Array.isArray(calls)) for (const c of calls) if (isObject(c)) take(c['args']);
    for (const p of partsOf(m.message['content'])) if (isObject(p['functionCall'])) take(p['functionCall']['args']);
    if (out.length > 40) break;
  }
  return out;
}

function ancestors(p: string): string[] {
  const out: string[] = [];
  let cur = p.replace(/[\\/]+$/, '');
  for (let i = 0; i < MAX_DEPTH; i++) {
    out.push(cur);
    const cut = Math.max(cur.lastIndexOf('/'), cur.lastIndexOf('\\'));
    if (cut <= 0) break;
    cur = cur.slice(0, cut);
  }
  return out;
}
