import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tombstoneMark, type Block, type Session } from '@glassbox/core';
import { scanLines } from '@glassbox/file-io';
import { TranscriptParser } from '../parser';
import { readSessionFile } from '../node';
import { sha256 } from '../hash';
import { capturedTextFromRecord } from '../tool-ops';
import { HASH_MIN_BYTES, preview } from './blocks';

const CORPUS = resolve(import.meta.dirname, '../../../../fixtures/corpus');

function transcripts(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) transcripts(path, out);
    else if (name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}
const claudeTranscripts = [...transcripts(join(CORPUS, 'generated')), ...transcripts(join(CORPUS, 'public'))].filter((p) => !p.includes('rollout-'));

type Expected = Pick<Block, 'preview'> & { hash?: string; tombstone?: string; elided?: true };

/** What a block's record gives, worked out from its line as read back (the oracle: no parser state). */
function expectedOf(record: Record<string, unknown>, block: Block): Expected | null {
  const message = record['message'] as { content?: unknown } | undefined;
  const content = message?.content;
  if (typeof content === 'string') return block.kind === 'text' && block.index === 0 && !block.label ? { preview: preview(content) } : null;
  if (!Array.isArray(content)) return null;
  const raw = content[block.index] as Record<string, unknown> | undefined;
  if (!raw) return null;
  if (block.kind === 'text' && raw['type'] === 'text') return { preview: preview(String(raw['text'] ?? '')) };
  if (block.kind === 'thinking' && raw['type'] === 'thinking') return { preview: preview(String(raw['thinking'] ?? '')) };
  if (block.kind !== 'tool-result' || raw['type'] !== 'tool_result') return null;
  const payload = raw['content'];
  const text = typeof payload === 'string' ? payload : Array.isArray(payload) ? payload.filter((p) => p?.type === 'text').map((p) => String(p.text ?? '')).join('\n') : null;
  const out: Expected = { preview: preview(text ?? '') };
  const hashOf = typeof payload === 'string' ? payload : Array.isArray(payload) ? JSON.stringify(payload) : null;
  if (hashOf !== null && block.bytes >= HASH_MIN_BYTES) out.hash = sha256(hashOf);
  const mark = text === null ? null : tombstoneMark(text);
  if (mark) Object.assign(out, mark);
  return out;
}

/** Every block of the session whose details come from its payload carries them, as its line gives them; every read its captured text's hash. */
function checkDetails(session: Session, lines: readonly string[]): number {
  let checked = 0;
  for (const call of session.toolCalls.values()) {
    const result = call.resultUuid === undefined ? undefined : session.nodes.get(call.resultUuid);
    if (call.op.kind !== 'read' || call.isError || !result || call.op.unchanged) continue;
    const captured = capturedTextFromRecord(JSON.parse(lines[result.line - 1] as string), call.id);
    expect(call.op.capturedHash, `${session.path}:${result.line} read ${call.id}`).toBe(captured === null ? undefined : sha256(captured));
    checked++;
  }
  for (const node of session.nodes.values()) {
    if (node.kind === 'compact-boundary' || node.rawType === 'attachment' || node.rawType === 'system') continue;
    const record = JSON.parse(lines[node.line - 1] as string) as Record<string, unknown>;
    for (const block of node.blocks) {
      const expected = expectedOf(record, block);
      if (!expected) continue;
      const got: Expected = { preview: block.preview };
      if (block.hash !== undefined) got.hash = block.hash;
      if (block.tombstone !== undefined) got.tombstone = block.tombstone;
      if (block.elided) got.elided = true;
      if (block.preview === '(redacted thinking)') continue;
      expect(got, `${session.path}:${node.line} block ${block.index}`).toEqual(expected);
      checked++;
    }
  }
  return checked;
}

describe('details worked out only for blocks that stay', () => {
  it('gives every block of a finished session its preview, payload hash and tombstone mark, on every real transcript', () => {
    let checked = 0;
    let hashed = 0;
    for (const path of claudeTranscripts) {
      const { session } = readSessionFile(path);
      checked += checkDetails(session, readFileSync(path, 'utf8').split('\n'));
      for (const node of session.nodes.values()) for (const b of node.blocks) if (b.hash) hashed++;
    }
    // The corpus has hundreds of such blocks, and payloads big enough to hash among them.
    expect(checked).toBeGreaterThan(500);
    expect(hashed).toBeGreaterThan(50);
  });

  it('gives them in a snapshot taken at any line of a session that compacts, and the parse goes on unchanged', () => {
    const path = claudeTranscripts.find((p) => p.includes('18-compaction')) ?? claudeTranscripts.find((p) => readFileSync(p, 'utf8').includes('"compact_boundary"'));
    expect(path).toBeDefined();
    if (!path) return;
    const lines = readFileSync(path, 'utf8').split('\n');
    const parser = new TranscriptParser({ path });
    let snapshots = 0;
    scanLines(path, (text, line, offset, length) => {
      parser.push(text, line, offset, length);
      if (line % 7 === 0) {
        checkDetails(parser.snapshot(), lines);
        snapshots++;
      }
    });
    expect(snapshots).toBeGreaterThan(3);
    const finished = parser.finish();
    const whole = readSessionFile(path).session;
    expect(finished.nodes).toEqual(whole.nodes);
    expect(finished.prunedUsage).toEqual(whole.prunedUsage);
    expect(checkDetails(finished, lines)).toBeGreaterThan(0);
  });
});
