import { describe, expect, it } from 'vitest';
import { buildFork } from './apply';
import { validateFork as validateAsText, type ValidationReport } from './validate';
import { NEW_ID, candidateActions, generatedPath, readLines, validateForkAsBytes } from '@glassbox/test-support/claude-code/fork-corpus';

// Records are edited freely here, as a damaged fork would be.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Rec = Record<string, any>;

const lines = readLines(generatedPath('01-superseded-reads'));
const good = buildFork(lines, candidateActions(lines), NEW_ID);

function failed(report: ValidationReport): string[] {
  return report.checks.filter((c) => !c.ok).map((c) => c.id);
}

/** Edits one record of the good fork. */
function edit(index: number, change: (r: Rec) => void, base = good.lines): string[] {
  const out = base.slice();
  const r = JSON.parse(out[index] as string);
  change(r);
  out[index] = JSON.stringify(r);
  return out;
}

function findLine(pred: (r: Rec) => boolean, base: readonly string[] = lines): number {
  const i = base.findIndex((l) => pred(JSON.parse(l)));
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

// Every case both ways a validator is fed: line pairs as text (forks held in memory) and as bytes
// (the file writer, which tells a renamed line from its bytes and decodes only the others).
describe.each([
  ['as text', validateAsText],
  ['as bytes', validateForkAsBytes],
])('validateFork (%s) catches what a fork must not introduce', (_, validateFork) => {
  it('passes the good fork', () => {
    expect(failed(validateFork(lines, good.lines))).toEqual([]);
  });

  it('a line of invalid JSON', () => {
    const out = good.lines.slice();
    out[5] = (out[5] as string).slice(0, -3);
    const report = validateFork(lines, out);
    expect(failed(report)).toContain('json');
    expect(report.checks.find((c) => c.id === 'json')?.failures[0]?.line).toBe(6);
  });

  it('a dropped line', () => {
    const i = findLine((r) => r.type === 'assistant' && r.message.content[0]?.type === 'tool_use');
    const out = good.lines.filter((_, j) => j !== i);
    expect(failed(validateFork(lines, out))).toEqual(expect.arrayContaining(['lines', 'orphans', 'parents', 'chain']));
  });

  it('a dangling parentUuid (the client would silently cut the history there)', () => {
    const i = findLine((r) => r.type === 'user' && typeof r.parentUuid === 'string');
    const report = validateFork(lines, edit(i, (r) => (r.parentUuid = 'missing-parent')));
    expect(failed(report)).toEqual(expect.arrayContaining(['parents', 'untouched']));
    const f = report.checks.find((c) => c.id === 'parents')!.failures[0]!;
    expect(f.line).toBe(i + 1);
    expect(f.detail).toContain('missing-parent');
  });

  it('a duplicate uuid', () => {
    const i = findLine((r) => r.type === 'assistant');
    const j = findLine((r, ) => r.type === 'user' && Array.isArray(r.message?.content) && r.message.content[0]?.type === 'tool_result');
    const uuid = JSON.parse(good.lines[i] as string).uuid;
    expect(failed(validateFork(lines, edit(j, (r) => (r.uuid = uuid))))).toContain('uuids');
  });

  it('an emptied tool result', () => {
    const a = good.applied.find((x) => x.action.target === 'tool-result')!;
    const report = validateFork(lines, edit(a.line - 1, (r) => (r.message.content[a.action.blockIndex].content = '')));
    expect(failed(report)).toEqual(expect.arrayContaining(['empty-content', 'payloads-only']));
  });

  it('a tool_use removed from its record (orphaned result)', () => {
    const i = findLine((r) => r.type === 'assistant' && r.message.content[0]?.type === 'tool_use');
    const report = validateFork(lines, edit(i, (r) => (r.message.content = [{ type: 'text', text: 'hi' }])));
    expect(failed(report)).toEqual(expect.arrayContaining(['orphans', 'untouched']));
  });

  it('one byte changed beside the renamed session id', () => {
    const i = findLine((r) => r.type === 'user' && typeof r.message?.content === 'string' && r.message.content.length > 3, good.lines);
    const out = good.lines.slice();
    const text = out[i] as string;
    const at = text.indexOf('"content":"') + '"content":"'.length;
    out[i] = text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1);
    const report = validateFork(lines, out);
    expect(failed(report)).toContain('untouched');
    expect(report.checks.find((c) => c.id === 'untouched')!.failures[0]!.line).toBe(i + 1);
  });

  it('a sessionId left unchanged on one record', () => {
    const i = findLine((r) => r.type === 'assistant');
    const old = JSON.parse(lines[i] as string).sessionId;
    expect(failed(validateFork(lines, edit(i, (r) => (r.sessionId = old))))).toContain('session-id');
  });

  it('a fork that keeps the original session id everywhere', () => {
    const same = buildFork(lines, candidateActions(lines), JSON.parse(lines[0] as string).sessionId ?? JSON.parse(lines[1] as string).sessionId);
    expect(failed(validateFork(lines, same.lines))).toContain('session-id');
  });

  it('a changed prompt text (not a payload a fork may replace)', () => {
    const i = findLine((r) => r.type === 'user' && typeof r.message?.content === 'string');
    const report = validateFork(lines, edit(i, (r) => (r.message.content = 'something else')));
    expect(failed(report)).toContain('untouched');
    expect(report.checks.find((c) => c.id === 'untouched')!.failures[0]!.detail).toContain('message.content');
  });

  it('a modified thinking block', () => {
    const i = findLine((r) => r.type === 'assistant' && r.message.content.some((b: { type: string }) => b.type === 'thinking'));
    const report = validateFork(lines, edit(i, (r) => {
      const b = r.message.content.find((x: { type: string }) => x.type === 'thinking');
      b.thinking = b.thinking + ' ';
    }));
    expect(failed(report)).toContain('thinking');
  });

  it('a payload replaced by something larger', () => {
    const a = good.applied.find((x) => x.action.target === 'tool-result')!;
    const report = validateFork(lines, edit(a.line - 1, (r) => (r.message.content[a.action.blockIndex].content = 'x'.repeat(200_000))));
    expect(failed(report)).toContain('payloads-only');
  });

  it('a touched line re-serialised with another key order', () => {
    const a = good.applied[0]!;
    const out = good.lines.slice();
    const r = JSON.parse(out[a.line - 1] as string);
    const { uuid, ...rest } = r;
    out[a.line - 1] = JSON.stringify({ ...rest, uuid });
    const report = validateFork(lines, out);
    expect(failed(report)).toEqual(['payloads-only']);
  });

  it('a redirected last-prompt leaf (another branch would resume)', () => {
    const i = lines.map((l) => JSON.parse(l)).map((r, j) => (r.type === 'last-prompt' ? j : -1)).filter((j) => j >= 0).pop()!;
    const first = JSON.parse(lines[findLine((r) => r.type === 'user' && r.parentUuid === null)] as string).uuid;
    const report = validateFork(lines, edit(i, (r) => (r.leafUuid = first)));
    expect(failed(report)).toEqual(expect.arrayContaining(['leaf', 'chain', 'untouched']));
  });

  it('an unplanned change, when the plan is given', () => {
    const actions = good.applied.map((a) => a.action).slice(1);
    const report = validateFork(lines, good.lines, { actions });
    expect(failed(report)).toEqual(['planned']);
    expect(report.checks.find((c) => c.id === 'planned')!.failures[0]!.line).toBe(good.applied[0]!.line);
  });

  it('reports only what the fork introduced, not what the original had', () => {
    // An original with a broken line and a dangling parent: a fork that keeps both is still valid.
    const damaged = lines.slice();
    damaged[3] = '{"type":"user", broken';
    const i = findLine((r) => r.type === 'assistant', damaged.map((l) => (l.startsWith('{"type":"user", broken') ? '{}' : l)));
    const r = JSON.parse(damaged[i] as string);
    r.parentUuid = 'gone-before';
    damaged[i] = JSON.stringify(r);
    const fork = buildFork(damaged, [], NEW_ID);
    const report = validateFork(damaged, fork.lines);
    expect(failed(report)).toEqual([]);
  });
});
