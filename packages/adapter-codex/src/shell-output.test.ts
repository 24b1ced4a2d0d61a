import { describe, expect, it } from 'vitest';
import { readRolloutFile } from './node/read-file';
import { parseShellOutput } from './shell-output';
import { MOONMIND_058, firstRollout, linesOf } from '@glassbox/test-support/codex/corpus';

/** The output texts of a rollout's tool outputs, in file order. */
function outputs(path: string): string[] {
  return linesOf(path)
    .map((l) => JSON.parse(l))
    .filter((r) => r.type === 'response_item' && typeof r.payload.output === 'string')
    .map((r) => r.payload.output as string);
}

describe('tool output headers, as each Codex generation writes them', () => {
  it('unified exec (0.169): Chunk ID, Wall time, exit code, token count, then the body', () => {
    const all = outputs(firstRollout('02-duplicates-deletes-errors'));
    const exec = all.filter((o) => o.startsWith('Chunk ID: '));
    expect(exec.length).toBeGreaterThan(10);
    for (const o of exec) {
      const p = parseShellOutput(o);
      expect(p.shape).toBe('unified-exec');
      expect(p.exitCode).not.toBeNull();
      expect(o.endsWith(p.body)).toBe(true);
      expect(o.slice(0, o.length - p.body.length)).toMatch(/^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code \d+\nOriginal token count: \d+\nOutput:\n$/);
    }
    expect(exec.some((o) => parseShellOutput(o).exitCode === 1)).toBe(true);
  });

  it('freeform apply_patch output (0.169)', () => {
    const patch = outputs(firstRollout('01-shell-reads-and-patch')).find((o) => o.startsWith('Exit code: '))!;
    expect(parseShellOutput(patch)).toMatchObject({ shape: 'freeform', exitCode: 0, truncated: false, body: 'Success. Updated the following files:\nM src/store.mjs\n' });
  });

  it('structured JSON output (0.58): {output, metadata.exit_code}', () => {
    const all = outputs(MOONMIND_058).filter((o) => o.startsWith('{"output"'));
    expect(all.length).toBeGreaterThan(10);
    const first = parseShellOutput(all[0]!);
    expect(first).toMatchObject({ shape: 'structured', exitCode: 127 });
    expect(first.body).toContain('No such file or directory');
    expect(all.map((o) => parseShellOutput(o)).filter((p) => p.exitCode === 0).length).toBeGreaterThan(10);
  });

  it('an output Codex truncated when it recorded it', () => {
    const big = outputs(firstRollout('03-long-session-compaction')).find((o) => o.includes('tokens truncated'))!;
    const p = parseShellOutput(big);
    expect(p.truncated).toBe(true);
    expect(p.body.startsWith('Warning: truncated output')).toBe(true);
  });
});

describe('duplicate outputs: the block hash is the body after the header', () => {
  it('two runs of the same command give different records and the same hash (02)', () => {
    const s = readRolloutFile(firstRollout('02-duplicates-deletes-errors'));
    const byCommand = new Map<string, { hash: string | undefined; preview: string; line: number }[]>();
    for (const c of s.toolCalls.values()) {
      const node = s.nodes.get(c.resultUuid!)!;
      const label = c.op.kind === 'command' ? c.op.command : c.op.kind === 'read' ? `read ${c.op.path}` : c.name;
      const list = byCommand.get(label) ?? [];
      list.push({ hash: node.blocks[0]!.hash, preview: node.blocks[0]!.preview, line: node.line });
      byCommand.set(label, list);
    }
    const passing = byCommand.get('node test/run.mjs')!;
    expect(passing.length).toBe(4);
    const lines = linesOf(firstRollout('02-duplicates-deletes-errors'));
    const texts = passing.map((p) => JSON.parse(lines[p.line - 1]!).payload.output as string);
    // byte-different records (their Chunk IDs differ) …
    expect(new Set(texts).size).toBe(4);
    // … two bodies (the failing and the passing run), each seen twice
    expect(new Set(passing.map((p) => p.hash)).size).toBe(2);
    expect(passing[2]!.hash).toBe(passing[3]!.hash);
    expect(passing[0]!.hash).toBe(passing[1]!.hash);
  });
});
