import { closeSync, openSync, readSync } from 'node:fs';
import type { Agent, AgentRegistry } from '@glassbox/core';

const HEAD_BYTES = 64 * 1024;
const HEAD_LINES = 40;

/** The first complete lines of a file (at most 64 KB), for recognising its format. [] when unreadable. */
export function headLines(path: string): string[] {
  return readHead(path).lines();
}

/** A file's first 64 KB, read once; its lines decoded only as far as they are asked for. */
export interface Head {
  /** headLines' lines: the first complete lines (at most 40). */
  lines(): string[];
  /**
   * The first of those lines that lie whole within the first `bytes` (all of them when the head is no
   * longer): always a prefix of `lines()`, decoded from the same bytes.
   */
  first(bytes: number): string[];
}

/** Reads a file's head for headLines; an unreadable file has no lines. */
export function readHead(path: string): Head {
  const buf = Buffer.allocUnsafe(HEAD_BYTES);
  let n = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return { lines: () => [], first: () => [] };
  }
  let all: string[] | null = null;
  const lines = (): string[] => {
    if (all) return all;
    const pieces = buf.toString('utf8', 0, n).split('\n');
    // The last piece may be cut in the middle of a line, unless the file ended there.
    if (n === HEAD_BYTES) pieces.pop();
    return (all = pieces.slice(0, HEAD_LINES));
  };
  return {
    lines,
    first: (bytes) => {
      if (bytes >= n) return lines();
      // Lines end at a newline byte, which never falls inside a UTF-8 sequence: these decode as in lines().
      const end = buf.lastIndexOf(10, bytes - 1);
      return end < 0 ? [] : buf.toString('utf8', 0, end).split('\n').slice(0, HEAD_LINES);
    },
  };
}

/**
 * The agent that wrote a file, from its first lines; when no adapter recognises it, the agent whose
 * client alone names files so (`claimsFileName`: a Gemini CLI `session-<minute>-<id>.json`), else the
 * first agent, reads it (its parser then reports what is wrong, with file and line).
 */
export function agentForFile(registry: AgentRegistry, path: string): Agent {
  const head = headLines(path);
  const known = registry.recognise(head.slice(0, HEAD_LINES)).agent;
  if (known) return known;
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return registry.agents.find((a) => a.locator.claimsFileName?.(name) === true) ?? registry.byId(null);
}

/** The same for lines held in memory (the file's, in order): the agent that recognises its first lines. */
export function agentForLines(registry: AgentRegistry, lines: readonly string[]): Agent {
  return registry.recognise(lines.slice(0, HEAD_LINES)).agent ?? registry.byId(null);
}
