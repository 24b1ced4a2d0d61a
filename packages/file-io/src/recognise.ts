import { closeSync, openSync, readSync } from 'node:fs';
import type { Agent, AgentRegistry } from '@glassbox/core';

const HEAD_BYTES = 64 * 1024;
const HEAD_LINES = 40;

/** The first complete lines of a file (at most 64 KB), for recognising its format. [] when unreadable. */
export function headLines(path: string): string[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return [];
  }
  try {
    const buf = Buffer.allocUnsafe(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    const text = buf.toString('utf8', 0, n);
    const lines = text.split('\n');
    // The last piece may be cut in the middle of a line, unless the file ended there.
    if (n === HEAD_BYTES) lines.pop();
    return lines.slice(0, HEAD_LINES);
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
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
