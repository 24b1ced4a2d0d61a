import { describe, expect, it } from 'vitest';
import { readRolloutFile } from './node/read-file';
import { RolloutParser, type CodexSession } from './parser';
import { MOONMIND_057, MOONMIND_058, firstRollout, linesOf, scenarioRollouts } from '@glassbox/test-support/codex/corpus';

/** A rollout's lines (a real file's, changed as a test says) parsed in memory, captured text kept. */
function parseLines(lines: string[]): CodexSession {
  const parser = new RolloutParser({ path: 'variant.jsonl', fallbackId: '', keepCapturedText: true });
  let offset = 0;
  lines.forEach((text, i) => {
    parser.push(text, i + 1, offset, Buffer.byteLength(text) + 1);
    offset += Buffer.byteLength(text) + 1;
  });
  return parser.finish(true);
}

describe('parse, 2026 paginated generation (Codex 0.169)', () => {
  const s = readRolloutFile(firstRollout('01-shell-reads-and-patch'));

  it('reads the header and every record', () => {
    expect(s.generation).toBe('paginated');
    expect(s.agent).toBe('codex');
    expect(s.id).toBe('01a22f8e-8cb7-7a50-a07d-a74fa42cad20');
    expect(s.version).toBe('0.169.0');
    expect(s.cwd).toBe('/tmp/codex-harness-work/01-shell-reads-and-patch/project');
    expect(s.stats.records).toBe(102);
    expect(s.problems).toEqual([]);
    expect(s.firstPrompt).toMatch(/^Add a `due-soon` command/);
  });

  it('keeps the resident window as a chain in file order, from the first item to the last', () => {
    const nodes = s.order.map((u) => s.nodes.get(u)!);
    expect(nodes[0]!.parentUuid).toBeNull();
    for (let i = 1; i < nodes.length; i++) expect(nodes[i]!.parentUuid).toBe(nodes[i - 1]!.uuid);
    expect(s.leafUuid).toBe(nodes[nodes.length - 1]!.uuid);
    const lines = nodes.map((n) => n.line);
    expect([...lines].sort((a, b) => a - b)).toEqual(lines);
    // 41 response items, none of the events
    expect(nodes).toHaveLength(41);
    expect(nodes.every((n) => n.rawType.startsWith('response_item/'))).toBe(true);
  });

  it('labels context, prompts, replies, calls and outputs', () => {
    const kinds = s.order.map((u) => s.nodes.get(u)!.kind);
    expect(kinds.filter((k) => k === 'prompt')).toHaveLength(2);
    expect(kinds.slice(0, 2)).toEqual(['meta', 'meta']);
    expect(kinds.filter((k) => k === 'tool-results')).toHaveLength(12);
    const ops = [...s.toolCalls.values()].map((c) => c.op.kind);
    expect(ops.filter((k) => k === 'read')).toHaveLength(7);
    expect(ops.filter((k) => k === 'edit')).toHaveLength(3);
    expect(ops.filter((k) => k === 'write')).toHaveLength(1);
    expect(ops.filter((k) => k === 'command')).toEqual(['command']);
  });

  it('counts encrypted reasoning by its size and labels it', () => {
    const reasoning = s.order.map((u) => s.nodes.get(u)!).filter((n) => n.rawType === 'response_item/reasoning');
    expect(reasoning.length).toBeGreaterThan(0);
    for (const n of reasoning) {
      const enc = n.blocks.find((b) => b.kind === 'redacted-thinking')!;
      expect(enc.preview).toBe(`(encrypted reasoning, ${enc.bytes} bytes)`);
      expect(enc.tokens).toBeGreaterThan(0);
      expect(n.blocks.find((b) => b.kind === 'thinking')!.preview.length).toBeGreaterThan(0);
    }
  });

  it('takes per-request usage from token_count and the reported context from the last one', () => {
    expect(s.requests).toHaveLength(12);
    const first = s.requests[0]!;
    expect(first).toMatchObject({ line: 21, model: 'gpt-5.5', input: 9181, cachedInput: 0, output: 74 });
    expect(s.reported).toEqual({ line: 101, inputTokens: 13529, totalTokens: 13550, contextWindow: 258400 });
    // the usage sits on the reply's items, as neutral usage (cached input apart)
    const reply = s.order.map((u) => s.nodes.get(u)!).find((n) => n.kind === 'assistant' && n.usage)!;
    expect(reply.usage).toMatchObject({ inputTokens: 9181, cacheReadTokens: 0, outputTokens: 74, cacheCreationTokens: 0 });
    const second = s.order.map((u) => s.nodes.get(u)!).filter((n) => n.usage && n.messageId === 'response-2');
    expect(second[0]!.usage).toMatchObject({ inputTokens: 10288 - 9088, cacheReadTokens: 9088 });
  });
});

describe('parse, after automatic compactions', () => {
  const s = readRolloutFile(firstRollout('03-long-session-compaction'));

  it('starts the window at the last compacted record, with its replacement history', () => {
    const window = s.order.map((u) => s.nodes.get(u)!).filter((n) => n.parentUuid !== null || n.kind === 'compact-boundary');
    const boundaries = s.order.map((u) => s.nodes.get(u)!).filter((n) => n.kind === 'compact-boundary');
    expect(boundaries.map((b) => b.line)).toEqual([63, 158]);
    // walk the leaf back: it ends at the last boundary
    const chain = [];
    for (let n = s.nodes.get(s.leafUuid!); n; n = n.parentUuid ? s.nodes.get(n.parentUuid) : undefined) chain.unshift(n);
    expect(chain[0]!.line).toBe(158);
    const carried = chain.filter((n) => n.line === 158 && n.kind !== 'compact-boundary');
    expect(carried.map((n) => n.kind)).toEqual(['meta', 'meta', 'meta', 'meta', 'compact-summary']);
    expect(carried.slice(0, 4).map((n) => n.subtype)).toEqual(['replacement history', 'replacement history', 'replacement history', 'replacement history']);
    // then every response item written after it: the prompt, 3 calls, 3 outputs, the answer
    expect(chain.filter((n) => n.line > 158).map((n) => n.kind)).toEqual(['prompt', 'assistant', 'assistant', 'tool-results', 'tool-results', 'assistant', 'tool-results', 'assistant']);
    // kept beside the window for history and cost: the two earlier prompts and the first boundary
    expect(window.length).toBe(chain.length + 3);
  });

  it('keeps prompts and the usage of what it let go', () => {
    expect(s.order.map((u) => s.nodes.get(u)!).filter((n) => n.kind === 'prompt')).toHaveLength(3);
    expect(s.prunedRecords).toBeGreaterThan(50);
    expect(s.requests).toHaveLength(24);
    const usageHeld = new Set(s.order.map((u) => s.nodes.get(u)!).filter((n) => n.usage).map((n) => n.messageId));
    expect(s.prunedUsage.length + usageHeld.size).toBe(24);
  });

  it('does not call an output Codex truncated a read', () => {
    const seq = [...s.toolCalls.values()].find((c) => c.op.kind === 'command' && c.op.command === 'seq 1 30000');
    expect(seq).toBeUndefined(); // let go with the window before the first compaction
  });

  it('does not take an output Codex truncated for the text of a read, even when the command is a read', () => {
    // The corpus's one truncated output answers `seq 1 30000`, which is no read: asked as a `cat`, the
    // same output (cut in the middle by Codex) must still not become the file's text.
    const lines = linesOf(firstRollout('03-long-session-compaction'));
    const outAt = lines.findIndex((l) => l.includes('tokens truncated'));
    const callId = (JSON.parse(lines[outAt]!) as { payload: { call_id: string } }).payload.call_id;
    const callAt = lines.findIndex((l) => l.includes('"type":"function_call"') && l.includes(callId));
    expect(lines[callAt]).toContain('seq 1 30000');
    const asCat = lines.slice(0, outAt + 1);
    asCat[callAt] = asCat[callAt]!.replace('seq 1 30000', 'cat data/numbers.txt');
    const parsed = parseLines(asCat);
    expect(parsed.toolCalls.get(callId)?.op).toMatchObject({ kind: 'command', command: 'cat data/numbers.txt' });
    // the untruncated reads of the same prefix are reads
    const reads = [...parsed.toolCalls.values()].filter((c) => c.op.kind === 'read').map((c) => c.op.kind === 'read' && [c.op.path.split('/').pop(), c.op.truncated]);
    expect(reads).toEqual([['README.md', false], ['tasks.csv', false], ['tasks.csv', false], ['tasks.csv', false]]);
  });
});

describe('parse, 2025 envelope generation (Codex 0.57 / 0.58, no ordinals)', () => {
  it.each([
    [MOONMIND_057, '0.57.0', 'gpt-5-codex', 102],
    [MOONMIND_058, '0.58.0', 'gpt-5.1-codex', 43],
  ])('%s', (path, version, model, requests) => {
    const s = readRolloutFile(path);
    expect(s.generation).toBe('envelope');
    expect(s.version).toBe(version);
    expect(s.problems.filter((p) => p.severity !== 'info')).toEqual([]);
    expect(s.requests).toHaveLength(requests);
    expect(new Set(s.requests.map((r) => r.model))).toEqual(new Set([model]));
    // `shell` calls with argv and JSON outputs: `bash -lc 'cat F'` is still a read
    const reads = [...s.toolCalls.values()].filter((c) => c.op.kind === 'read');
    expect(reads.length).toBeGreaterThan(10);
    for (const r of reads) expect(r.op.kind === 'read' && r.op.path.startsWith('/mnt/d/ai/MoonMind/')).toBe(true);
    // the ghost snapshot is recorded but never sent
    const ghost = s.order.map((u) => s.nodes.get(u)!).filter((n) => n.rawType === 'response_item/ghost_snapshot');
    for (const g of ghost) expect(g.kind).toBe('other');
  });

  it('gives each count to the reply that follows it: 2025 Codex wrote a request’s count before its items (0.58)', () => {
    const s = readRolloutFile(MOONMIND_058);
    const node = (line: number) => s.nodes.get(`L${line}`)!;
    const input = (line: number) => node(line).usage!.inputTokens + node(line).usage!.cacheReadTokens;
    // line 9: the first count (5 233 input tokens: the three context messages), then its reasoning and call
    expect([s.requests[0]!.line, s.requests[0]!.input]).toEqual([9, 5233]);
    expect([input(10), input(11)]).toEqual([5233, 5233]);
    expect(node(10).messageId).toBe(node(11).messageId);
    // line 14 repeats line 9's count; line 17 is the next request's, given to the items after it
    expect(input(18)).toBe(5382);
    expect(node(18).messageId).not.toBe(node(11).messageId);
    // the last request's usage is on the last reply's items: the reported context
    const last = s.order.map((u) => s.nodes.get(u)!).filter((n) => n.kind === 'assistant').pop()!;
    expect(last.usage!.inputTokens + last.usage!.cacheReadTokens).toBe(s.reported!.inputTokens);
  });
});

describe('parse, a `codex exec fork` file', () => {
  it('names its parent and the part it does not hold', () => {
    const [, fork] = scenarioRollouts('04-read-grammar-and-fork');
    const s = readRolloutFile(fork!);
    expect(s.forkedFromId).toBe('01a22f8e-af69-7e93-a3d3-2918fc28f99d');
    expect(s.historyBase).toEqual({ threadId: '01a22f8e-af69-7e93-a3d3-2918fc28f99d', endOrdinalExclusive: 71 });
    expect(s.requests).toHaveLength(4);
  });
});
