import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRolloutFile } from '../node/read-file';
import { parseObject } from '../json';
import { MOONMIND_057, firstRollout, linesOf, scenarioRollouts, SCENARIOS } from '@glassbox/test-support/codex/corpus';
import { buildCodexFork, type CodexForkAction } from './apply';
import { renameIdValues, uuidV7 } from './ids';
import { validateCodexFork } from './validate';

const NEW_ID = uuidV7(Date.parse('2026-12-01T12:00:00Z'), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));

/** Tombstones for every resident, successful output over 300 bytes, as a plan would name them. */
function planFor(path: string): CodexForkAction[] {
  const s = readRolloutFile(path);
  const out: CodexForkAction[] = [];
  for (const uuid of s.order) {
    const n = s.nodes.get(uuid)!;
    const b = n.blocks[0];
    if (n.kind !== 'tool-results' || !b || b.bytes < 300 || b.isError) continue;
    out.push({ uuid: n.uuid, line: n.line, blockIndex: 0, target: 'tool-result', toolUseId: b.toolUseId!, tombstone: `[glassbox: output removed, sha256 ${b.hash}]` });
  }
  return out;
}

const forkable = [...SCENARIOS.map(firstRollout), MOONMIND_057];

describe('fork: a full copy, outputs tombstoned, every other byte kept', () => {
  it.each(forkable.map((p) => [p.split('/').pop(), p]))('%s', (_name, path) => {
    const lines = linesOf(path);
    const actions = planFor(path);
    expect(actions.length).toBeGreaterThan(0);
    const r = buildCodexFork(lines, actions, NEW_ID);
    expect(r.refused).toEqual([]);
    expect(r.applied).toHaveLength(actions.length);
    const fork = r.lines!;
    expect(fork).toHaveLength(lines.length);
    const touched = new Set(r.touchedLines);
    const oldId = r.originalSessionId!;
    // untouched lines: identical once the id is put back; and the id changed wherever it was a value
    const untouched = lines.map((_, i) => i).filter((i) => !touched.has(i + 1));
    expect(untouched).toHaveLength(lines.length - touched.size);
    for (const i of untouched) expect(renameIdValues(fork[i]!, NEW_ID, oldId).text).toBe(lines[i]);
    // touched lines: the planned outputs, each one changed
    expect(touched.size).toBe(actions.length);
    for (const line of touched) expect(renameIdValues(fork[line - 1]!, NEW_ID, oldId).text).not.toBe(lines[line - 1]);
    for (let i = 0; i < lines.length; i++) {
      const o = parseObject(lines[i]!);
      const f = parseObject(fork[i]!);
      expect(f?.['ordinal']).toBe(o?.['ordinal']);
      expect(f?.['type']).toBe(o?.['type']);
    }
    const meta = parseObject(fork[0]!)!;
    const payload = meta['payload'] as Record<string, unknown>;
    expect(payload['id']).toBe(NEW_ID);
    // 0.169 writes session_id beside id (the generated scenarios); 0.57/0.58 do not (MoonMind)
    const originalPayload = parseObject(lines[0]!)!['payload'] as Record<string, unknown>;
    expect('session_id' in payload).toBe('session_id' in originalPayload);
    expect(payload['session_id']).toBe('session_id' in originalPayload ? NEW_ID : undefined);
    const v = validateCodexFork(lines, fork, { plannedLines: actions.map((a) => a.line) });
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.touchedLines).toEqual(r.touchedLines);
    // the fork parses to the same window, with smaller outputs
    const before = readRolloutFile(path);
    const tmp = join(mkdtempSync(join(tmpdir(), 'codex-fork-')), `rollout-2026-12-01T03-03-21-${NEW_ID}.jsonl`);
    writeFileSync(tmp, fork.join('\n') + '\n');
    const after = readRolloutFile(tmp);
    expect(after.id).toBe(NEW_ID);
    expect(after.order).toEqual(before.order);
    expect(after.requests).toEqual(before.requests);
    for (const a of actions) {
      const b = after.nodes.get(a.uuid!)!.blocks[0]!;
      expect(b.bytes).toBeLessThan(before.nodes.get(a.uuid!)!.blocks[0]!.bytes);
      expect(b.preview).toBe(a.tombstone);
    }
  });

  it('refuses a `codex exec fork` file, which resumes only through its parent', () => {
    const [, child] = scenarioRollouts('04-read-grammar-and-fork');
    const r = buildCodexFork(linesOf(child!), [], NEW_ID);
    expect(r.lines).toBeNull();
    expect(r.refusedFile).toContain('codex exec fork');
  });

  it("refuses a subagent's thread, which Codex runs and resumes from its parent session", () => {
    for (const scenario of ['05-subagent-forked-thread', '06-subagent-fork-context']) {
      const thread = scenarioRollouts(scenario).find((f) => linesOf(f)[0]?.includes('"subagent"'));
      expect(thread).toBeDefined();
      const r = buildCodexFork(linesOf(thread!), planFor(thread!), NEW_ID);
      expect(r.lines).toBeNull();
      expect(r.refusedFile).toContain("subagent's thread");
    }
  });

  it('refuses actions it cannot apply exactly, and says why', () => {
    const path = firstRollout('01-shell-reads-and-patch');
    const lines = linesOf(path);
    const [first] = planFor(path);
    const callLine = lines.findIndex((l) => l.includes('"type":"function_call"')) + 1;
    const r = buildCodexFork(
      lines,
      [
        { ...first!, toolUseId: 'call_other' },
        { line: callLine, tombstone: 'x' },
        { ...first!, tombstone: 'x'.repeat(5000) },
        { ...first!, tombstone: '  ' },
        { ...first!, target: 'tool-input' },
        { ...first!, uuid: 'L1' },
        first!,
        first!,
      ],
      NEW_ID,
    );
    expect(r.refused.map((x) => x.code)).toEqual(['call_mismatch', 'not_an_output', 'not_smaller', 'empty_tombstone', 'tool_input', 'uuid_mismatch', 'duplicate_action']);
    expect(r.applied).toHaveLength(1);
  });

  // The resume command is agent.test.ts's; its name and folder, the store's codex-naming test.
  it('names the fork with a UUID v7, as Codex names sessions', () => {
    expect(NEW_ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('validate: stricter than Codex', () => {
  const path = firstRollout('03-long-session-compaction');
  const lines = linesOf(path);
  const good = buildCodexFork(lines, planFor(path), NEW_ID).lines!;
  const failed = (fork: string[]) => validateCodexFork(lines, fork).checks.filter((c) => !c.ok).map((c) => c.id);

  it('accepts the good fork', () => {
    expect(failed(good)).toEqual([]);
  });

  it('a new invalid line (Codex would skip it)', () => {
    const f = [...good];
    f[5] = f[5]!.slice(0, 20);
    expect(failed(f)).toContain('json');
  });

  it('an output removed (Codex would answer the call with "aborted")', () => {
    const at = good.findIndex((l) => l.includes('"type":"function_call_output"'));
    expect(failed(good.filter((_, i) => i !== at))).toEqual(expect.arrayContaining(['lines', 'pairing']));
  });

  it('a call_id changed (Codex would drop the orphan output)', () => {
    const at = good.findIndex((l) => l.includes('"type":"function_call_output"'));
    const f = [...good];
    f[at] = f[at]!.replace(/"call_id":"([^"]+)"/, '"call_id":"call_changed"');
    expect(failed(f)).toEqual(expect.arrayContaining(['pairing', 'outputs-only']));
  });

  it('the last record without an ordinal (Codex refuses to resume)', () => {
    const f = [...good];
    const r = JSON.parse(f[f.length - 1]!);
    delete r.ordinal;
    f[f.length - 1] = JSON.stringify(r);
    expect(failed(f)).toEqual(expect.arrayContaining(['ordinals']));
  });

  it('a compaction without its replacement history (Codex would replay everything)', () => {
    const f = good.map((l) => {
      const r = JSON.parse(l);
      if (r.type !== 'compacted') return l;
      delete r.payload.replacement_history;
      return JSON.stringify(r);
    });
    expect(failed(f)).toEqual(expect.arrayContaining(['kept-records']));
  });

  it('world_state or turn_context dropped (Codex would re-announce the context)', () => {
    expect(failed(good.map((l) => (l.includes('"type":"world_state"') ? '' : l)))).toEqual(expect.arrayContaining(['kept-records']));
  });

  it('the old id kept, or left on a line', () => {
    expect(failed(lines)).toContain('session-id');
    const f = [...good];
    const at = f.findIndex((l, i) => i > 0 && l.includes(NEW_ID));
    f[at] = renameIdValues(f[at]!, NEW_ID, readRolloutFile(path).id).text;
    expect(failed(f)).toContain('session-id');
  });

  it('an output made longer, or another field changed', () => {
    const at = good.findIndex((l) => l.includes('"type":"function_call_output"'));
    const f = [...good];
    const r = JSON.parse(f[at]!);
    r.payload.output = r.payload.output + ' and more';
    f[at] = JSON.stringify(r);
    expect(failed(f)).toContain('outputs-only');
    const g = [...good];
    g[1] = g[1]!.replace('"timestamp":"', '"timestamp":"1');
    expect(failed(g)).toContain('untouched');
  });

  it('unplanned or missing changes', () => {
    const planned = planFor(path).map((a) => a.line);
    expect(validateCodexFork(lines, good, { plannedLines: planned.slice(1) }).checks.find((c) => c.id === 'planned')!.ok).toBe(false);
    expect(validateCodexFork(lines, good, { plannedLines: [...planned, 2] }).checks.find((c) => c.id === 'planned')!.ok).toBe(false);
  });
});
