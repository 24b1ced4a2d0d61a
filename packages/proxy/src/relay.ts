import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { StreamFacts, jsonFacts, type ResponseFacts } from '@glassbox/request-anthropic';
import { isObject } from '@glassbox/core';
import { replyHeaders } from './upstream';

/** A whole JSON reply larger than this is passed on without being read for its usage. */
const JSON_FACTS_LIMIT = 8 * 1024 * 1024;

/**
 * Passes a reply to the client as it arrives — status, headers and every chunk unchanged, nothing
 * held back — and reads its usage on the side (decompressed on the side when it is compressed).
 * `done` gets the facts when the reply has ended, or null when they could not be read.
 */
export function relay(up: IncomingMessage, res: ServerResponse, done: (facts: ResponseFacts | null, complete: boolean) => void): void {
  res.writeHead(up.statusCode ?? 502, replyHeaders(up.headers));
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  const tap = factsTap(up);
  up.on('data', (chunk: Buffer) => tap.push(chunk));
  let complete = false;
  up.on('end', () => {
    complete = true;
  });
  res.on('close', () => {
    if (!up.complete) up.destroy();
    tap.finish((facts) => done(facts, complete && res.writableFinished));
  });
  up.on('error', () => res.destroy());
  up.pipe(res);
}

interface Tap {
  push(chunk: Buffer): void;
  finish(then: (facts: ResponseFacts | null) => void): void;
}

function factsTap(up: IncomingMessage): Tap {
  const type = String(up.headers['content-type'] ?? '');
  const encoding = String(up.headers['content-encoding'] ?? 'identity').toLowerCase();
  const sse = type.includes('text/event-stream');
  const json = type.includes('application/json');
  if (!sse && !json) return { push() {}, finish: (then) => then(null) };
  let failed = false;
  const stream = sse ? new StreamFacts() : null;
  const chunks: Buffer[] = [];
  let size = 0;
  const read = (c: Buffer): void => {
    if (stream) stream.push(c);
    else if ((size += c.length) <= JSON_FACTS_LIMIT) chunks.push(c);
  };
  const result = (): ResponseFacts | null => {
    if (failed) return null;
    if (stream) return stream.finish();
    if (size > JSON_FACTS_LIMIT) return null;
    try {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      return isObject(body) ? jsonFacts(body) : null;
    } catch {
      return null;
    }
  };
  const inflate = encoding === 'gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : null;
  if (encoding !== 'identity' && !inflate) return { push() {}, finish: (then) => then(null) };
  if (!inflate) return { push: read, finish: (then) => then(result()) };
  let pending: ((facts: ResponseFacts | null) => void) | null = null;
  inflate.on('data', read);
  inflate.on('error', () => {
    failed = true;
    pending?.(null);
    pending = null;
  });
  inflate.on('end', () => {
    pending?.(result());
    pending = null;
  });
  return {
    push: (c) => {
      if (!failed) inflate.write(c);
    },
    finish: (then) => {
      if (failed) return then(null);
      pending = then;
      inflate.end();
    },
  };
}
