import { describe, expect, it } from 'vitest';
import { readRequest, type ReadRequest } from './request';
import { checkRewrite, locate, rewriteRequest, type Replacement } from './rewrite';
import { RECORDED_RUNS, recordedRun } from '@glassbox/test-support/request-anthropic/recorded';

function lastRequest(name: string): ReadRequest {
  const run = recordedRun(name);
  const body = run.exchanges[run.exchanges.length - 1]?.body;
  if (!body) throw new Error('no exchange');
  const read = readRequest(body);
  if (!read.ok) throw new Error(read.reason);
  return read.request;
}

/** Every tool_result and Write/Edit input of the request, as replacements with a short tombstone. */
function everyPayload(request: ReadRequest): Replacement[] {
  const out: Replacement[] = [];
  for (const m of request.messages) {
    for (const b of m.blocks) {
      const tombstone = `[glassbox: removed m${m.index}:${b.index} (test); sha256 ]`;
      const r: Replacement = { message: m.index, block: b.index, target: b.type === 'tool_result' ? 'tool-result' : 'tool-input', tombstone };
      if (b.type !== 'tool_result' && b.type !== 'tool_use') continue;
      const where = locate(request, r);
      if (typeof where === 'string' || where.span.end - where.span.start <= JSON.stringify(tombstone).length) continue;
      out.push(r);
    }
  }
  return out;
}

describe.each(RECORDED_RUNS)('tombstones in the bytes of a real request (%s)', (name) => {
  const request = lastRequest(name);
  const replacements = everyPayload(request);

  it('changes exactly the replaced values and keeps every other byte', () => {
    expect(replacements.length).toBeGreaterThan(5);
    const rw = rewriteRequest(request, replacements);
    if (!rw.ok) throw new Error(rw.reason);
    expect(checkRewrite(request, rw.bytes, rw.removed)).toBeNull();
    // Put the removed bytes back where the tombstones are: the client's request, byte for byte.
    let text = rw.bytes.toString('utf8');
    for (const r of [...rw.removed].reverse()) {
      const t = JSON.stringify(r.replacement.tombstone);
      const at = text.lastIndexOf(t);
      text = text.slice(0, at) + r.original.toString('utf8') + text.slice(at + t.length);
    }
    expect(Buffer.from(text, 'utf8').equals(request.bytes)).toBe(true);
    expect(rw.bytes.length).toBeLessThan(request.bytes.length);
  });

  it('refuses a rewrite that changed anything else, or lost a pairing', () => {
    const one = replacements.slice(0, 1);
    const rw = rewriteRequest(request, one);
    if (!rw.ok) throw new Error(rw.reason);
    const spaced = Buffer.from(rw.bytes.toString('utf8').replace('"max_tokens":', '"max_tokens": '), 'utf8');
    expect(checkRewrite(request, spaced, rw.removed)).toBe('the rewritten request changed bytes outside its tombstones');
    const changed = Buffer.from(rw.bytes.toString('utf8').replace(/"stream":true/, '"stream":fals'), 'utf8');
    expect(checkRewrite(request, changed, rw.removed)).toBe('the rewritten request changed bytes outside its tombstones');
    const firstResult = request.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_result');
    const id = String(firstResult?.value['tool_use_id']);
    const unpaired = Buffer.from(rw.bytes.toString('utf8').replace(`"tool_use_id":"${id}"`, `"tool_use_id":"${id.slice(0, -1)}x"`), 'utf8');
    expect(checkRewrite(request, unpaired, rw.removed)).not.toBeNull();
  });

  it('refuses replacements that overlap, miss, or would not shrink', () => {
    const first = replacements[0];
    if (!first) throw new Error('no replacement');
    expect(rewriteRequest(request, [first, first])).toMatchObject({ ok: false, reason: 'two replacements overlap' });
    expect(rewriteRequest(request, [{ ...first, block: 99 }])).toMatchObject({ ok: false });
    const long = 'x'.repeat(request.bytes.length);
    expect(rewriteRequest(request, [{ ...first, tombstone: long }])).toMatchObject({ ok: false });
  });
});
