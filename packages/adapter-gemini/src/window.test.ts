// The resident window is what the real client sends when it resumes the chat: each fixture's
// resume-request.json is the request Gemini CLI (the version that wrote the chat) sent for
// `gemini --resume <id> -p "reply ok"`, and the window's sent blocks must be its parts, in order.
import type { Block, ChainNode } from '@glassbox/core';
import { describe, expect, it } from 'vitest';
import { parseChatLines } from './parse-lines';
import type { GeminiSession } from './parser';
import { fixtures, linesOf, mainChat, resumeRequest, type Fixture } from '@glassbox/test-support/gemini/corpus';

/** One part as compared: what it is, the call it belongs to, and its size. */
type Shape = string;

/** The client names a call `<tool>__<id>` in the file and sends the model's own `<id>`. */
const callId = (id: string | undefined): string => (id ?? '?').replace(/^[a-z_]+?__/, '');

function blockShape(b: Block): Shape {
  if (b.kind === 'tool-use') return `call ${callId(b.toolUseId)}`;
  if (b.kind === 'tool-result') return `response ${callId(b.toolUseId)} ${b.bytes}`;
  return `${b.kind} ${b.bytes}`;
}

function partShape(p: Record<string, unknown>): Shape {
  const enc = (s: string) => new TextEncoder().encode(s).length;
  if (typeof p['text'] === 'string') return `${p['thought'] === true ? 'thinking' : 'text'} ${enc(p['text'])}`;
  const call = p['functionCall'] as { id?: string } | undefined;
  if (call) return `call ${callId(call.id)}`;
  const resp = p['functionResponse'] as { id?: string; response?: { output?: unknown } } | undefined;
  if (resp) {
    const out = resp.response?.output;
    return `response ${callId(resp.id)} ${enc(typeof out === 'string' ? out : JSON.stringify(resp.response))}`;
  }
  return Object.keys(p).join('+');
}

/** The window's blocks the client sends, in order; the session context it rebuilds at each start is left out. */
function windowShapes(s: GeminiSession): Shape[] {
  const out: Shape[] = [];
  for (const uuid of s.order) {
    const n = s.nodes.get(uuid) as ChainNode;
    if (n.notSent || n.kind === 'compact-boundary' || n.subtype === 'session context') continue;
    for (const b of n.blocks) if (!b.notSent) out.push(blockShape(b));
  }
  return out;
}

/** The request's parts without the fresh session context (first) and the probe's "reply ok" (last). */
function requestShapes(f: Fixture): Shape[] {
  const parts = resumeRequest(f).contents.flatMap((c) => c.parts);
  const first = parts[0];
  if (first && typeof first['text'] === 'string' && /^(<session_context>|This is the Gemini CLI)/.test(first['text'])) parts.shift();
  const last = parts[parts.length - 1];
  if (last && last['text'] === 'reply ok') parts.pop();
  return parts.map(partShape);
}

describe('the window is the request the real client sends on resume', () => {
  it.each(fixtures().map((f) => [`${f.scenario} v${f.version}`, f] as const))('%s', (_name, f) => {
    const path = mainChat(f);
    const s = parseChatLines(linesOf(path), { path });
    expect(s.problems.filter((p) => p.severity !== 'info')).toEqual([]);
    expect(windowShapes(s)).toEqual(requestShapes(f));
  });
});

describe('what each generation sends', () => {
  it('0.61 sends every tool result twice on resume: both copies are in the window', () => {
    const f = fixtures().find((x) => x.scenario === '01-reads-edits-gone' && x.version === '0.61') as Fixture;
    const s = parseChatLines(linesOf(mainChat(f)), { path: mainChat(f) });
    const results = [...s.nodes.values()].flatMap((n) => n.blocks.filter((b) => b.kind === 'tool-result'));
    const calls = [...s.toolCalls.keys()];
    expect(results.length).toBe(calls.length * 2);
  });

  it('a kept compression starts the window at its snapshot (0.61); 0.38 and 0.28 resume the whole history', () => {
    for (const f of fixtures().filter((x) => x.scenario === '03-compression')) {
      const s = parseChatLines(linesOf(mainChat(f)), { path: mainChat(f) });
      const first = s.nodes.get(s.order[0] as string) as ChainNode;
      if (f.version === '0.61') {
        expect(first.kind).toBe('compact-boundary');
        expect(s.compactions).toHaveLength(1);
        expect([...s.nodes.values()].some((n) => n.kind === 'compact-summary')).toBe(true);
        expect(s.prunedRecords).toBeGreaterThan(0);
      } else {
        expect(first.kind).not.toBe('compact-boundary');
        expect(s.compactions).toHaveLength(0);
      }
    }
  });
});
