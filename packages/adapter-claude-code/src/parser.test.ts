import { mkdtempSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessionWithSubagents, readSessionFile } from './node';
import { sha256 } from './hash';

const CORPUS = resolve(import.meta.dirname, '../../../fixtures/corpus');
const generated = (name: string): string => {
  const dir = join(CORPUS, 'generated', name, 'claude-project');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
};
function tempFile(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-parse-'));
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n');

describe('parsing real transcripts', () => {
  it('reads every generated session without errors, with line numbers and byte offsets', () => {
    for (const name of readdirSync(join(CORPUS, 'generated')).filter((n) => /^\d\d-/.test(n))) {
      const path = generated(name);
      const { session } = readSessionFile(path);
      expect(session.problems.filter((p) => p.severity !== 'info'), name).toEqual([]);
      expect(session.leafUuid, name).not.toBeNull();
      const raw = readFileSync(path);
      for (const uuid of session.order.slice(0, 20)) {
        const node = session.nodes.get(uuid);
        expect(node, `${name}: ${uuid}`).toBeDefined();
        if (!node) continue;
        const text = raw.subarray(node.offset, node.offset + node.length).toString('utf8');
        expect(JSON.parse(text).uuid, `${name}:${node.line}`).toBe(uuid);
        expect(lines(path)[node.line - 1]).toBe(text);
      }
    }
  });

  it('takes the leaf from the last last-prompt record', () => {
    const path = generated('04-subagent-compact-multiturn');
    const { session } = readSessionFile(path);
    const lastPrompt = lines(path).filter((l) => l.includes('"type":"last-prompt"')).pop() ?? '';
    expect(session.leafUuid).toBe(JSON.parse(lastPrompt).leafUuid);
  });

  it('follows a branch appended after the last last-prompt only when it descends from that leaf', () => {
    const path = generated('01-superseded-reads');
    const all = lines(path).filter(Boolean);
    const { session } = readSessionFile(path);
    // Cut the file right after a mid-session record: the last message descends from no later last-prompt.
    const cut = all.slice(0, 30).join('\n') + '\n';
    const { session: early } = readSessionFile(tempFile('cut.jsonl', cut));
    expect(early.leafUuid).not.toBe(session.leafUuid);
    const lastMsg = all.slice(0, 30).map((l) => JSON.parse(l)).filter((r) => r.type === 'user' || r.type === 'assistant').pop();
    expect(early.leafUuid).toBe(lastMsg.uuid);
  });

  it('groups split assistant records by message id and links results written out of order (TUI)', () => {
    const { session } = readSessionFile(generated('07-interactive-tui'));
    expect(session.problems.filter((p) => p.code === 'orphan_tool_result')).toEqual([]);
    for (const call of session.toolCalls.values()) expect(call.resultUuid, call.name).toBeDefined();
    const ids = new Map<string, number>();
    for (const n of session.nodes.values()) if (n.messageId) ids.set(n.messageId, (ids.get(n.messageId) ?? 0) + 1);
    expect([...ids.values()].some((n) => n > 1)).toBe(true);
  });

  it('reads old 1.0.x numbered-arrow reads and error results whose mirror is a string', () => {
    const { session } = readSessionFile(join(CORPUS, 'public/d-kimuson__claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'));
    const reads = [...session.toolCalls.values()].filter((c) => c.op.kind === 'read' && !c.isError);
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) {
      if (r.op.kind !== 'read') continue;
      // The parser keeps only the hash; the text is read back from the file on demand.
      expect(r.op.capturedText).toBeUndefined();
      const text = session.capturedTextOf?.(r) ?? null;
      expect(text, r.id).not.toBeNull();
      expect(sha256(text ?? ''), r.id).toBe(r.op.capturedHash);
    }
    const errors = [...readSessionFile(generated('02-gone-drift-errors')).session.toolCalls.values()].filter((c) => c.isError);
    expect(errors.map((c) => c.name).sort()).toEqual(['Bash', 'Edit', 'Edit', 'MultiEdit', 'Read'].sort());
  });

  it('marks token-capped reads partial and file_unchanged re-reads as carrying no content', () => {
    const { session } = readSessionFile(generated('03-large-outputs'));
    const capped = [...session.toolCalls.values()].find((c) => c.op.kind === 'read' && c.op.truncated);
    expect(capped?.op).toMatchObject({ kind: 'read', truncated: true, full: false, startLine: 1, numLines: 654 });
    const { session: s1 } = readSessionFile(generated('01-superseded-reads'));
    expect([...s1.toolCalls.values()].some((c) => c.op.kind === 'read' && c.op.unchanged)).toBe(true);
  });

  it('links subagent files to the Agent call that started them', () => {
    const path = generated('04-subagent-compact-multiturn');
    const { session, subagents } = loadSessionWithSubagents(path);
    expect(subagents).toHaveLength(1);
    const agentUse = lines(path).find((l) => l.includes('"name":"Agent"')) ?? '';
    const agentId = (JSON.parse(agentUse).message.content as { id: string; name: string }[]).find((b) => b.name === 'Agent')?.id;
    expect(session.subagents[0]?.toolUseId).toBe(agentId);
    expect(subagents[0]?.leafUuid).not.toBeNull();
  });
});

describe('bad input is reported, not thrown', () => {
  const source = generated('01-superseded-reads');

  it('skips an invalid JSON line and names its line number', () => {
    const all = lines(source);
    all.splice(9, 0, '{"type":"user", this is not json');
    const { session } = readSessionFile(tempFile('bad.jsonl', all.join('\n')));
    const p = session.problems.find((q) => q.code === 'invalid_json');
    expect(p?.line).toBe(10);
    expect(p?.message).toContain('bad.jsonl:10');
    expect(session.toolCalls.size).toBe(readSessionFile(source).session.toolCalls.size);
  });

  it('treats a torn last line as a warning, not an error', () => {
    const text = readFileSync(source, 'utf8').trimEnd();
    const torn = text.slice(0, text.length - 40);
    const { session } = readSessionFile(tempFile('torn.jsonl', torn));
    const p = session.problems.find((q) => q.code === 'torn_last_line');
    expect(p?.severity).toBe('warning');
    expect(p?.line).toBe(torn.split('\n').length);
    expect(session.problems.some((q) => q.severity === 'error')).toBe(false);
  });

  it('keeps and counts unknown record types', () => {
    const all = lines(source);
    all.splice(3, 0, (all[0] ?? '').replace('"type":"queue-operation"', '"type":"future-record-kind"'));
    const { session } = readSessionFile(tempFile('unknown.jsonl', all.join('\n')));
    expect(session.stats.unknownTypes).toEqual({ 'future-record-kind': 1 });
    expect(session.problems.find((p) => p.code === 'unknown_record_type')?.severity).toBe('info');
  });

  it('says a file of another agent is not a transcript', () => {
    const codex = join(CORPUS, 'public/MoonLadderStudios__MoonMind');
    const { session } = readSessionFile(join(codex, readdirSync(codex).find((f) => f.endsWith('.jsonl')) ?? ''));
    expect(session.problems.map((p) => p.code)).toEqual(['not_a_transcript']);
  });

  it('says an empty file is empty, a missing path is missing, and a folder is not a file', () => {
    expect(readSessionFile(tempFile('empty.jsonl', '')).session.problems[0]?.code).toBe('file_empty');
    expect(readSessionFile('/nonexistent/glassbox/none.jsonl').session.problems[0]?.code).toBe('file_missing');
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-dir-'));
    mkdirSync(join(dir, 'x.jsonl'));
    expect(readSessionFile(join(dir, 'x.jsonl')).session.problems[0]?.code).toBe('file_unreadable');
  });

  it('reads a subagent file on its own as one window, without its siblings', () => {
    const { subagents } = loadSessionWithSubagents(generated('04-subagent-compact-multiturn'));
    const own = loadSessionWithSubagents(subagents[0]?.path ?? '');
    expect(own.session.agentId).toBeDefined();
    expect(own.subagents).toEqual([]);
    expect(own.session.leafUuid).toBe(subagents[0]?.leafUuid);
  });

  it('lets go of records a compaction made unreachable, keeping their usage and the prompts', () => {
    const path = generated('04-subagent-compact-multiturn');
    const { session } = readSessionFile(path);
    expect(session.prunedRecords).toBeGreaterThan(0);
    const all = lines(path).filter(Boolean).map((l) => JSON.parse(l));
    const boundary = all.findIndex((r) => r.subtype === 'compact_boundary');
    const preserved: string[] = all[boundary].compactMetadata.preservedMessages.uuids;
    for (const r of all.slice(0, boundary)) {
      if (!r.uuid) continue;
      const kept = session.nodes.has(r.uuid);
      const keepable = preserved.includes(r.uuid) || (r.type === 'user' && typeof r.message.content === 'string' && !r.isMeta);
      expect(kept, `line ${all.indexOf(r) + 1}`).toBe(keepable);
    }
    const ids = new Set(all.slice(0, boundary).filter((r) => r.type === 'assistant').map((r) => r.message.id));
    const prunedIds = new Set(session.prunedUsage.map((u) => u.messageId));
    const letGo = [...ids].filter((id) => !preserved.some((u) => session.nodes.get(u)?.messageId === id));
    // five responses before the boundary, one kept with the preserved message, four let go
    expect([ids.size, letGo.length]).toEqual([5, 4]);
    expect(letGo.filter((id) => !prunedIds.has(id))).toEqual([]);
  });

  it('reads lines split across read chunks and multi-byte characters intact', () => {
    // Three copies of a real file (2 MB) cross the 1 MB read chunk inside lines.
    const one = readFileSync(generated('03-large-outputs'));
    const big = Buffer.concat([one, one, one]);
    const { session } = readSessionFile(tempFile('copy.jsonl', big));
    expect(session.stats.lines).toBe(3 * one.toString('utf8').split('\n').filter(Boolean).length);
    expect(session.problems.filter((p) => p.severity !== 'info')).toEqual([]);
    expect(session.stats.bytes).toBe(big.length);
  });
});
