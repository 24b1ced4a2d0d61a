import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderAttachment } from '@glassbox/adapter-claude-code';
import { readSessionFile } from '@glassbox/adapter-claude-code/node';
import type { ChainNode, ClassifiedSnapshot } from '@glassbox/core';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { analyzeSession, type AnalyzeOptions } from './analyze';
import { FIXTURES, generatedSession, variantOf } from '@glassbox/test-support/analysis/fixtures';
import { CAPTURED_ON, checkAgainst, loadRequest, recordedFixtures } from '@glassbox/test-support/analysis/requests';

const fixtureDir = (name: string): string => join(FIXTURES, 'generated', name);
const request = (name: string, file = 'resume-request.json') => loadRequest(join(fixtureDir(name), file));

/**
 * A snapshot taken on the day the requests were captured (retirement dates depend on it), for the
 * client that captured them: 2.1.197 unless the options name another.
 */
function analyzeOn(path: string, options: AnalyzeOptions = {}, now = CAPTURED_ON): ClassifiedSnapshot {
  const { session } = readSessionFile(path);
  const ports = { ...nodeAnalysisPorts(), now: () => now };
  return analyzeSession(session, ports, { client: '2.1.197', ...options });
}

function nodesOf(path: string, pick: (n: ChainNode, raw: Record<string, unknown>) => boolean): ChainNode[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const { session } = readSessionFile(path);
  return session.order.map((u) => session.nodes.get(u)).filter((n): n is ChainNode => !!n && pick(n, JSON.parse(lines[n.line - 1] ?? '{}')));
}

/** Every user- and system-side text of a request, joined: what the model reads besides the replies. */
function requestText(messages: unknown[]): string {
  const out: string[] = [];
  for (const m of messages as { content: unknown }[]) {
    const c = m.content;
    if (typeof c === 'string') out.push(c);
    else if (Array.isArray(c)) {
      for (const b of c as { type: string; text?: string; content?: unknown }[]) {
        if (b.type === 'text' && b.text) out.push(b.text);
        if (b.type === 'tool_result' && typeof b.content === 'string') out.push(b.content);
      }
    }
  }
  return out.join('\u0000');
}

const FIXED = /\[[^\]]*: (\d+) bytes of the client's wording\]/;

/**
 * The rendered attachment is in the request at its exact size. Its text alternates literal pieces and
 * the byte counts of the client's fixed wording: some occurrence of the first literal piece, less the
 * fixed bytes before it, starts a run of exactly `bytes` bytes that ends with the last literal piece.
 */
function sentAtSize(hay: string, renderedText: string, bytes: number): boolean {
  const parts = renderedText.split(new RegExp(FIXED.source));
  // split() with one capture group alternates literal, fixed count, literal, …
  const literals = parts.filter((_, i) => i % 2 === 0);
  const fixedBefore = parts[0] === '' && parts.length > 1 ? Number(parts[1]) : 0;
  const first = literals.find((t) => t.length > 0) ?? '';
  const last = [...literals].reverse().find((t) => t.length > 0) ?? '';
  const lastFixedAfter = literals[literals.length - 1] === '' && parts.length > 2;
  const buf = Buffer.from(hay, 'utf8');
  let from = 0;
  for (;;) {
    const at = buf.indexOf(Buffer.from(first, 'utf8'), from);
    if (at < 0) return false;
    const start = at - fixedBefore;
    const run = buf.subarray(start, start + bytes).toString('utf8');
    if (start >= 0 && (lastFixedAfter || run.endsWith(last)) && run.includes(first)) return true;
    from = at + 1;
  }
}

describe('the window against the request the real client sent (recorded fixtures)', () => {
  const recorded = recordedFixtures();

  it('covers every generated fixture and the public transcripts', () => {
    expect(recorded.length).toBeGreaterThanOrEqual(23);
  });

  for (const { transcript, request: path } of recorded) {
    it(`${path.slice(FIXTURES.length + 1)}: no item the request lacks, and the model the client chose`, () => {
      const req = loadRequest(path);
      const { window, comparison } = checkAgainst(transcript, req);
      expect(window.model.model).toBe(req.model);
      expect(comparison.results.onlyGlassbox).toEqual([]);
      expect(comparison.calls.onlyGlassbox).toEqual([]);
      expect(comparison.textOnlyGlassbox).toEqual([]);
      expect(comparison.thinkingOnlyGlassbox).toEqual([]);
      // And nothing of the transcript's tool traffic is missing from the window either.
      expect(comparison.results.onlyRequest).toEqual([]);
      expect(comparison.calls.onlyRequest).toEqual([]);
      expect(comparison.thinkingOnlyRequest).toEqual([]);
      expect(comparison.nonResultBytes.ratio).toBeGreaterThan(0.94);
      expect(comparison.nonResultBytes.ratio).toBeLessThan(1.02);
    });
  }
});

describe('rules of the request, each on a real transcript', () => {
  it('an orphan tool result is left out; with its call in place it is sent', () => {
    const path = generatedSession('01-superseded-reads');
    const lines = readFileSync(path, 'utf8').split('\n');
    const useAt = lines.findIndex((l) => l.includes('"type":"tool_use"') && l.includes('"name":"Read"'));
    const use = JSON.parse(lines[useAt] ?? '{}');
    const id = use.message.content[0].id as string;
    // The call's record removed, its child re-linked to its parent: the result now answers nothing in the file.
    const orphaned = variantOf(path, (ls) =>
      ls.filter((_, i) => i !== useAt).map((l) => (l.includes(`"parentUuid":"${use.uuid}"`) ? l.replace(use.uuid, use.parentUuid) : l)),
    );
    const seg = (snap: ClassifiedSnapshot) => snap.segments.find((s) => s.kind === 'tool-result' && s.toolUseId === id);
    expect(seg(analyzeOn(path))).toBeDefined();
    const snap = analyzeOn(orphaned);
    expect(seg(snap)).toBeUndefined();
    expect(snap.request?.notSent.map((n) => n.reason)).toContain('a tool result whose call is not in the file');
  });

  it('API-error placeholders are never sent, the client-written "No response requested." is', () => {
    const path = generatedSession('13-api-error');
    const errors = nodesOf(path, (_, r) => r['isApiErrorMessage'] === true);
    expect(errors).toHaveLength(2);
    const snap = analyzeOn(path);
    // The session ends on an error: it is still the leaf the window is walked from.
    expect(snap.leafUuid).toBe(errors[1]?.uuid);
    for (const e of errors) expect(snap.segments.some((s) => s.uuid === e.uuid)).toBe(false);
    const synthetic = nodesOf(path, (n, r) => n.synthetic === true && r['isApiErrorMessage'] !== true);
    expect(synthetic).toHaveLength(1);
    expect(snap.segments.some((s) => s.uuid === synthetic[0]?.uuid && s.kind === 'assistant-text')).toBe(true);
    expect(requestText(request('13-api-error').messages)).not.toContain('API Error');
  });

  it('reasoning is sent only to the model that wrote it: the session model by default, any model by option', () => {
    const path = generatedSession('11-model-switch');
    const thinking = (snap: ClassifiedSnapshot) => snap.segments.filter((s) => s.kind === 'thinking');
    const byModel = (model: string) => new Set(nodesOf(path, (n) => n.model === model).map((n) => n.uuid));
    const sonnet = byModel('claude-sonnet-4-6');
    const opus = byModel('claude-opus-4-8');
    const restored = analyzeOn(path);
    expect(restored.request?.model).toBe('claude-sonnet-4-6');
    expect(restored.request?.modelBasis).toMatch(/last model/);
    expect(thinking(restored).length).toBe(2);
    expect(thinking(restored).every((s) => sonnet.has(s.uuid))).toBe(true);
    const asked = analyzeOn(path, { model: 'claude-opus-4-8' });
    expect(asked.request?.modelBasis).toBe('named by the caller');
    expect(thinking(asked).length).toBe(2);
    expect(thinking(asked).every((s) => opus.has(s.uuid))).toBe(true);
    // Both against the real client: the requests it sent on each model.
    for (const [file, model] of [['resume-request.json', undefined], ['resume-request.claude-opus-4-8.json', 'claude-opus-4-8']] as const) {
      const { comparison } = checkAgainst(path, request('11-model-switch', file), model);
      expect(comparison.thinkingOnlyGlassbox, file).toEqual([]);
      expect(comparison.thinkingOnlyRequest, file).toEqual([]);
    }
  });

  it('2.1.332 resumes a session whose last model it does not know on the model its last model attachment names; --model picks which reasoning is sent', () => {
    const path = generatedSession('20-newest-client-models');
    const restored = analyzeOn(path, { client: '2.1.332' });
    expect(restored.request?.model).toBe('claude-opus-9-9');
    expect(restored.segments.filter((s) => s.kind === 'thinking')).toEqual([]);
    // The unknown model has no window and no price: said so, not borrowed from another model.
    expect(restored.problems.some((p) => p.severity === 'error')).toBe(false);
    for (const [file, model, reasoning] of [
      ['resume-request.json', undefined, 0],
      ['resume-request.claude-opus-5-5.json', 'claude-opus-5-5', 2],
      ['resume-request.claude-sonnet-4-6.json', 'claude-sonnet-4-6', 2],
    ] as const) {
      const req = request('20-newest-client-models', file);
      expect(req.capturedWith).toMatch(/^Claude Code 2\.1\.332/);
      const { window, comparison } = checkAgainst(path, req, model);
      expect(window.model.model, file).toBe(req.model);
      expect(comparison.thinkingOnlyGlassbox, file).toEqual([]);
      expect(comparison.thinkingOnlyRequest, file).toEqual([]);
      expect(analyzeOn(path, { client: '2.1.332', ...(model ? { model } : {}) }).segments.filter((s) => s.kind === 'thinking'), file).toHaveLength(reasoning);
      // On claude-sonnet-4-6 the reminders go into the user messages, each in its wrapper; the window counts them so.
      expect(Math.abs(comparison.nonResultBytes.ratio - 1), file).toBeLessThan(0.01);
    }
  });

  it('a retired model is not restored: the default model is assumed and none of the old reasoning is sent', () => {
    const path = generatedSession('12-retired-model');
    const after = analyzeOn(path);
    expect(after.request?.model).toBe('claude-opus-4-8');
    expect(after.request?.modelBasis).toMatch(/claude-sonnet-4-20250514 is retired on 2026-06-15/);
    expect(after.segments.filter((s) => s.kind === 'thinking')).toEqual([]);
    // Before the retirement date the client restores it, and the reasoning goes with it.
    const before = analyzeOn(path, {}, new Date('2026-03-01T00:00:00Z'));
    expect(before.request?.model).toBe('claude-sonnet-4-20250514');
    expect(before.segments.filter((s) => s.kind === 'thinking')).toHaveLength(2);
  });

  it('local_command records are sent as user text; durations and boundaries are not', () => {
    const path = generatedSession('09-hooks-memory-todos');
    const local = nodesOf(path, (n) => n.rawType === 'system' && n.subtype === 'local_command');
    expect(local).toHaveLength(2);
    const snap = analyzeOn(path);
    for (const n of local) expect(snap.segments.find((s) => s.uuid === n.uuid)?.kind).toBe('meta');
    const hay = requestText(request('09-hooks-memory-todos').messages);
    expect(hay).toContain('/rename hooks-demo');
    const tui = generatedSession('07-interactive-tui');
    const durations = nodesOf(tui, (n) => n.subtype === 'turn_duration');
    expect(durations.length).toBeGreaterThan(0);
    const tuiSnap = analyzeOn(tui);
    for (const n of durations) expect(tuiSnap.segments.some((s) => s.uuid === n.uuid)).toBe(false);
  });

  it('every attachment is counted at the size of the text the client sent, or not at all', () => {
    const checked = new Map<string, number>();
    const notSent = new Map<string, number>();
    for (const name of ['09-hooks-memory-todos', '10-mcp-plan-mode', '15-autocompact-twice', '16-compact-instructions', '02-gone-drift-errors']) {
      const path = generatedSession(name);
      const hay = requestText(request(name).messages);
      const lines = readFileSync(path, 'utf8').split('\n');
      const snap = analyzeOn(path);
      for (const n of nodesOf(path, (n) => n.kind === 'attachment')) {
        const rendered = renderAttachment(JSON.parse(lines[n.line - 1] ?? '{}').attachment, null);
        const seg = snap.segments.find((s) => s.uuid === n.uuid);
        if ('notSent' in rendered) {
          expect(seg, `${name}:${n.line} ${n.subtype}`).toBeUndefined();
          notSent.set(n.subtype ?? '', (notSent.get(n.subtype ?? '') ?? 0) + 1);
          continue;
        }
        // Resident attachments only (earlier ones went with a compaction).
        if (!seg) continue;
        expect(sentAtSize(hay, rendered.text, rendered.bytes), `${name}:${n.line} ${n.subtype} (${rendered.bytes} bytes)`).toBe(true);
        expect(seg.bytes).toBe(rendered.bytes);
        checked.set(n.subtype ?? '', (checked.get(n.subtype ?? '') ?? 0) + 1);
      }
    }
    expect([...checked.keys()].sort()).toEqual(
      [
        'agent_listing_delta',
        'deferred_tools_delta',
        'file',
        'hook_additional_context',
        'hook_success',
        'mcp_instructions_delta',
        'nested_memory',
        'plan_mode',
        'plan_mode_exit',
        'skill_listing',
        'task_reminder',
        'todo_reminder',
      ].sort(),
    );
    // and the attachments the client never sends were met, none of them in the window
    expect(Object.fromEntries(notSent)).toEqual({ hook_success: 15 });
  });

  it('hook output of PostToolUse and Stop hooks stays local; SessionStart and UserPromptSubmit output is sent', () => {
    const path = generatedSession('09-hooks-memory-todos');
    const snap = analyzeOn(path);
    const hooks = nodesOf(path, (n) => n.subtype === 'hook_success');
    const sent = hooks.filter((n) => snap.segments.some((s) => s.uuid === n.uuid)).map((n) => n.blocks[0]?.label);
    expect(new Set(sent)).toEqual(new Set(['SessionStart:startup hook', 'UserPromptSubmit hook']));
    expect(hooks.length - sent.length).toBe(15);
    expect(snap.request?.notSent.find((r) => r.reason.startsWith('output of a PostToolUse hook'))?.items).toBe(13);
  });

  it('reminders the client appends to a tool result are parts of that result, on models that take them so', () => {
    const path = generatedSession('09-hooks-memory-todos');
    const bash = (snap: ClassifiedSnapshot) => snap.segments.filter((s) => s.kind === 'tool-result' && s.toolName === 'Bash');
    const joined = analyzeOn(path, { model: 'claude-sonnet-4-6' });
    const withParts = bash(joined).filter((s) => (s.parts ?? []).length > 0);
    expect(withParts.length).toBe(bash(joined).length);
    expect(withParts[0]?.parts?.[0]?.label).toBe('PostToolUse:Bash hook context');
    // The part is counted in the segment, not in what a tombstone would remove.
    const first = withParts[0];
    expect(first?.tokens).toBeGreaterThan(first?.evictableTokens ?? 0);
    expect(joined.segments.some((s) => s.kind === 'attachment' && s.source.label === 'PostToolUse:Bash hook context')).toBe(false);
    // The real client on that model: each Bash result grew by exactly the part's bytes.
    const req = request('09-hooks-memory-todos', 'resume-request.claude-sonnet-4-6.json');
    const results = new Map<string, string>();
    for (const m of req.messages as { content: unknown }[]) {
      if (!Array.isArray(m.content)) continue;
      for (const b of m.content as { type: string; tool_use_id?: string; content?: unknown }[]) {
        if (b.type === 'tool_result' && typeof b.content === 'string') results.set(b.tool_use_id ?? '', b.content);
      }
    }
    for (const s of withParts) {
      const sent = Buffer.byteLength(results.get(s.toolUseId ?? '') ?? '', 'utf8');
      const extra = (s.parts ?? []).reduce((n, p) => n + p.bytes, 0);
      // The client trims the result's text before joining; a few bytes of whitespace may go.
      expect(Math.abs(sent - (s.bytes + extra)), s.toolUseId).toBeLessThanOrEqual(4);
    }
    // On a model that takes system messages the reminder stays a segment of its own.
    const separate = analyzeOn(path);
    expect(bash(separate).every((s) => (s.parts ?? []).length === 0)).toBe(true);
    expect(separate.segments.some((s) => s.kind === 'attachment' && s.source.label === 'PostToolUse:Bash hook context')).toBe(true);
  });

  it('empty tool results count as results (pairing and item counts) though they add no bytes', () => {
    const path = join(FIXTURES, 'public/DRMacIver__claude-reliability/python-to-rust-port/transcript.jsonl');
    const snap = analyzeOn(path);
    const empties = snap.request?.items.emptyResults ?? 0;
    expect(empties).toBe(3);
    // The real client sent all three, empty, with their calls.
    const empty = nodesOf(path, (n) => n.blocks.some((b) => b.kind === 'tool-result' && b.bytes === 0)).flatMap((n) => n.blocks.map((b) => b.toolUseId));
    const req = loadRequest(join(FIXTURES, 'public/DRMacIver__claude-reliability/python-to-rust-port/transcript.resume-request.json'));
    const sent = JSON.stringify(req.messages);
    for (const id of empty) expect(sent).toContain(`"tool_use_id":"${id}"`);
    expect(snap.request?.notSent.some((r) => r.reason.includes('never answered'))).toBe(false);
    const results = snap.segments.filter((s) => s.kind === 'tool-result').length;
    expect(snap.request?.items.toolResults).toBe(results + empties);
    expect(snap.request?.items.toolCalls).toBe(snap.request?.items.toolResults);
    const none = analyzeOn(generatedSession('01-superseded-reads'));
    expect(none.request?.items.emptyResults).toBe(0);
  });

  it('an unanswered tool call is not counted; its answered sibling is', () => {
    const path = generatedSession('14-interrupted-tool');
    const snap = analyzeOn(path);
    const inputs = snap.segments.filter((s) => s.kind === 'tool-input');
    expect(inputs.map((s) => s.toolName)).toEqual(['Read', 'Read']);
    expect(snap.request?.notSent).toEqual([expect.objectContaining({ reason: 'a tool call that was never answered', items: 1 })]);
    const whole = analyzeOn(generatedSession('01-superseded-reads'));
    expect(whole.request?.notSent.some((r) => r.reason.includes('never answered'))).toBe(false);
  });

  it('the "Continue from where you left off." turn a resume adds is not counted, unless an earlier resume wrote it', () => {
    const continueText = 'Continue from where you left off.';
    // 14 ends on a tool call: the resume adds the turn, but it is not in the transcript.
    expect(requestText(request('14-interrupted-tool').messages)).toContain(continueText);
    const interrupted = analyzeOn(generatedSession('14-interrupted-tool'));
    expect(interrupted.segments.some((s) => s.preview === continueText)).toBe(false);
    // 13 was resumed after an interrupted turn: the client wrote the turn into the file, and sends it.
    const resumed = analyzeOn(generatedSession('13-api-error'));
    expect(resumed.segments.filter((s) => s.preview === continueText)).toHaveLength(1);
  });
});
