import { describe, expect, it } from 'vitest';
import { JsonScanner } from './json-spans';
import { readRequest } from './request';
import { cacheMarkerTtl, requestEnvironment } from './environment';
import { conversationKey } from './conversation';
import { RECORDED_RUNS, recordedRun } from '@glassbox/test-support/request-anthropic/recorded';

/** A recorded request with one edit made to its bytes (so refusals are tested on real requests). */
function edited(body: Buffer, from: string, to: string): Buffer {
  const text = body.toString('utf8');
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`${from} is not in the request`);
  return Buffer.from(text.slice(0, at) + to + text.slice(at + from.length), 'utf8');
}

describe.each(RECORDED_RUNS)('the requests Claude Code sent (%s)', (name) => {
  const run = recordedRun(name);

  it('lays out every message and block at the bytes that parse to it', () => {
    let blocks = 0;
    for (const ex of run.exchanges) {
      const read = readRequest(ex.body);
      if (!read.ok) throw new Error(`request ${ex.n}: ${read.reason}`);
      const parsed = JSON.parse(ex.body.toString('utf8')) as { messages: { content: unknown }[] };
      const scanner = new JsonScanner(ex.body);
      expect(read.request.messages).toHaveLength(parsed.messages.length);
      for (const m of read.request.messages) {
        expect(JSON.parse(scanner.text(m.contentSpan))).toEqual(parsed.messages[m.index]?.content);
        for (const b of m.blocks) {
          blocks++;
          expect(JSON.parse(scanner.text(b.span))).toEqual(b.value);
          for (const [key, span] of b.members) expect(JSON.parse(scanner.text(span))).toEqual(b.value[key]);
        }
      }
    }
    expect(blocks).toBeGreaterThan(500);
  });

  it('finds the working directory the client ran in, and how many lines a Read returns', () => {
    for (const ex of run.exchanges) {
      const read = readRequest(ex.body);
      if (!read.ok) throw new Error(read.reason);
      expect(requestEnvironment(read.request)).toEqual({ cwd: run.cwd, readDefaultLines: 2000 });
      expect(cacheMarkerTtl(read.request)).toBe('5m');
    }
  });

  it('keys every request of the run to one conversation, and another session to another', () => {
    const keys = new Set(
      run.exchanges.map((ex) => {
        const read = readRequest(ex.body);
        if (!read.ok) throw new Error(read.reason);
        return conversationKey(read.request, ex.session);
      }),
    );
    expect(keys.size).toBe(1);
    const first = run.exchanges[0];
    if (!first) throw new Error('no exchange');
    const read = readRequest(first.body);
    if (!read.ok) throw new Error(read.reason);
    expect(conversationKey(read.request, 'another-session')).not.toBe([...keys][0]);
    expect(conversationKey(read.request, null)).not.toBe([...keys][0]);
  });

  it('refuses what it does not know, naming it: an unknown field, block type or edit, a repeated key, a body that is not JSON', () => {
    const body = (run.exchanges[10] ?? run.exchanges[0])?.body;
    if (!body) throw new Error('no exchange');
    const refusals = [
      [edited(body, '"stream":true', '"stream":true,"speculative_decoding":true'), 'unknown field "speculative_decoding"'],
      [edited(body, '"type":"tool_result"', '"type":"tool_result_v2"'), 'unknown type "tool_result_v2"'],
      [edited(body, '"clear_thinking_20251015"', '"clear_tool_uses_20250919"'), 'context_management edit "clear_tool_uses_20250919" is not known'],
      [edited(body, '"stream":true', '"stream":true,"stream":false'), 'the field "stream" appears twice'],
      [edited(body, '"role":"assistant"', '"role":"developer"'), 'unknown role "developer"'],
      [body.subarray(0, body.length - 3), 'the body is not JSON'],
    ] as const;
    for (const [bytes, reason] of refusals) {
      const read = readRequest(bytes);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.reason).toContain(reason);
    }
  });
});
