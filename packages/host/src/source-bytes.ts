import { statSync } from 'node:fs';
import { readSlice } from '@glassbox/file-io';
import type { AgentRegistry, Session } from '@glassbox/core';

/**
 * Where a transcript's bytes come from: a file on disk (read-only, by offset) or the bytes of a file
 * dropped into a browser, held in memory and never written anywhere.
 */
export interface SourceBytes {
  /** One record line, by its byte offset and length (from the parsed ChainNode). */
  line(offset: number, length: number): string;
  size(): number;
}

export function fileBytes(path: string): SourceBytes {
  return {
    line: (offset, length) => readSlice(path, offset, length),
    size: () => statSync(path).size,
  };
}

export function memoryBytes(buf: Buffer): SourceBytes {
  return {
    line: (offset, length) => buf.toString('utf8', offset, offset + length),
    size: () => buf.length,
  };
}

/**
 * Parses transcript bytes held in memory, line by line, the same way the file reader does, with the
 * parser of the agent that recognises them (the first agent's when none does: it says what is wrong).
 */
export function parseBuffer(agents: AgentRegistry, buf: Buffer, path: string, fallbackId: string): Session {
  const head = buf.toString('utf8', 0, Math.min(buf.length, 64 * 1024)).split('\n').slice(0, 40);
  const agent = agents.recognise(head).agent ?? agents.byId(null);
  const parser = agent.format.createParser({ path, fallbackId, keepCapturedText: true });
  let start = 0;
  let line = 0;
  while (start < buf.length) {
    let nl = buf.indexOf(10, start);
    if (nl < 0) nl = buf.length;
    line++;
    let text = buf.toString('utf8', start, nl);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    parser.push(text, line, start, nl - start);
    start = nl + 1;
  }
  return parser.finish(buf.length === 0 || buf[buf.length - 1] === 10);
}
