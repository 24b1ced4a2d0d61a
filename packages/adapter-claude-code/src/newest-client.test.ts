// What Claude Code 2.1.332 writes, read from the fixtures it made (19–23; docs/claude-code/).
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChainNode, Session } from '@glassbox/core';
import { readSessionFile } from './node';
import { resumeModel } from './request/policy';
import { CLIENT_2_1_197, CLIENT_2_1_332, clientRules } from './request/models';

const CORPUS = resolve(import.meta.dirname, '../../../fixtures/corpus/generated');
const NEWEST = ['19-newest-client-window', '20-newest-client-models', '21-newest-client-agents-tools', '22-newest-client-tui', '23-newest-client-autocompact'];
function sessionFile(name: string): string {
  const dir = join(CORPUS, name, 'claude-project');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
}
const records = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const nodes = (s: Session): ChainNode[] => s.order.map((u) => s.nodes.get(u)).filter((n): n is ChainNode => n !== undefined);
const ON = new Date('2026-12-02T12:00:00Z');

describe('transcripts of Claude Code 2.1.332', () => {
  it('every record type is known: none is left unknown, and the request log and bookkeeping are no part of the chain', () => {
    for (const name of NEWEST) {
      const { session } = readSessionFile(sessionFile(name));
      expect(session.stats.unknownTypes, name).toEqual({});
      expect(session.problems.filter((p) => p.severity !== 'info'), name).toEqual([]);
      for (const type of ['cost-state', 'tools-used', 'atis-latch', 'api-request', 'api-request-blob', 'file-history-delta']) {
        expect(nodes(session).some((n) => n.rawType === type), `${name}: ${type}`).toBe(false);
      }
    }
    const { session } = readSessionFile(sessionFile('19-newest-client-window'));
    for (const type of ['cost-state', 'tools-used', 'atis-latch', 'api-request', 'api-request-blob', 'api-request-shape', 'file-history-delta']) expect(session.stats.byType[type], type).toBeGreaterThan(0);
    expect(nodes(session).some((n) => n.kind === 'system' && n.subtype === 'stop_hook_summary')).toBe(true);
  });

  it('sizes each attachment by the text the client recorded it sent: system messages without the wrapper, user messages with it', () => {
    const path = sessionFile('19-newest-client-window');
    const raw = records(path);
    const { session } = readSessionFile(path);
    let checked = 0;
    for (const n of nodes(session).filter((x) => x.kind === 'attachment')) {
      const r = raw.find((x) => x['uuid'] === n.uuid) as { rendered?: { content: string }[]; renderedRole?: string };
      const block = n.blocks[0];
      if (!r.rendered) continue;
      const texts = r.rendered.map((e) => e.content);
      const sent = r.renderedRole === 'system' ? texts.map((t) => t.replace(/^<system-reminder>\n/, '').replace(/\n<\/system-reminder>$/, '')) : texts;
      expect(block?.bytes, n.subtype).toBe(sent.reduce((k, t) => k + Buffer.byteLength(t), 0));
      expect(block?.recordedAsSent).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);
    const env = nodes(session).find((n) => n.subtype === 'environment');
    // Counted by the record's own fields it was under 100 bytes; the client sends the whole section.
    expect(env?.blocks[0]?.bytes).toBeGreaterThan(700);
  });

  it('never counts prompt_snapshot records, nor what 2.1.332 recorded without a rendering (it sent nothing)', () => {
    const { session } = readSessionFile(sessionFile('19-newest-client-window'));
    const snapshots = nodes(session).filter((n) => n.subtype === 'prompt_snapshot');
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    for (const n of snapshots) expect(n.blocks[0]).toMatchObject({ bytes: 0, notSent: 'the client does not send prompt_snapshot attachments' });
    const postRead = nodes(session).filter((n) => n.subtype === 'hook_success');
    expect(postRead.length).toBeGreaterThan(4);
    for (const n of postRead.filter((x) => x.blocks[0]?.recordedAsSent !== true)) expect(n.blocks[0]?.notSent).toMatch(/recorded without a rendering/);
  });

  it('reads the client\'s own cost record: the last one of the session, covering every run', () => {
    const path = sessionFile('19-newest-client-window');
    const { session } = readSessionFile(path);
    const last = records(path).filter((r) => r['type'] === 'cost-state').at(-1) as { totalCostUSD: number };
    expect(session.clientCost?.totalUsd).toBe(last.totalCostUSD);
    expect(session.clientCost?.byModel.map((m) => m.model)).toEqual(['claude-opus-5-5']);
    const firstReply = nodes(session).find((n) => n.kind === 'assistant');
    expect(session.clientCost?.fromLine).toBe(firstReply?.line);
    expect(readSessionFile(sessionFile('20-newest-client-models')).session.clientCost?.guessed).toBe(true);
  });

  it('notes the lines of the request log that repeat a tool result, by the call they repeat', () => {
    const { session } = readSessionFile(sessionFile('19-newest-client-window'));
    const copies = [...(session.payloadCopies ?? new Map()).entries()];
    expect(copies).toHaveLength(2);
    for (const [id, lines] of copies) {
      expect(session.toolCalls.get(id)?.name).toBe('Read');
      expect(lines).toHaveLength(1);
    }
  });

  it('reads a background agent\'s <task-notification> as the client\'s message, at the size it sends it', () => {
    const path = sessionFile('21-newest-client-agents-tools');
    const { session } = readSessionFile(path);
    const note = nodes(session).find((n) => n.blocks[0]?.label === 'task notification');
    expect(note?.kind).toBe('meta');
    const text = (records(path).find((r) => r['uuid'] === note?.uuid) as { message: { content: string } }).message.content;
    // The blob of the request that carried it holds the framing: wrapper and the not-user-input warning.
    const blob = records(path).find((r) => r['type'] === 'api-request-blob' && JSON.stringify(r).includes('SYSTEM NOTIFICATION')) as { message: { content: { text: string }[] } };
    const framed = blob.message.content.find((b) => b.text.includes(text.slice(0, 40)))?.text ?? '';
    expect(note?.blocks[0]?.bytes).toBe(Buffer.byteLength(framed));
    // Not the person's prompt: the session's prompts are the two typed ones.
    expect(nodes(session).filter((n) => n.kind === 'prompt')).toHaveLength(2);
  });

  it('an unknown record type is counted nowhere and named once (a variant of a real transcript)', () => {
    const path = sessionFile('19-newest-client-window');
    const text = readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => (l.startsWith('{"type":"tools-used"') ? l.replace('"type":"tools-used"', '"type":"tools-used-v9"') : l))
      .join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-newest-'));
    const variant = join(dir, 'variant.jsonl');
    writeFileSync(variant, text);
    const a = readSessionFile(path).session;
    const b = readSessionFile(variant).session;
    expect(b.stats.unknownTypes['tools-used-v9']).toBe(a.stats.byType['tools-used']);
    expect(b.order).toEqual(a.order);
    const named = b.problems.filter((p) => p.code === 'unknown_record_type');
    expect(named).toHaveLength(1);
    expect(named[0]?.message).toContain('"tools-used-v9"');
  });
});

describe('the model a client resumes on', () => {
  const window = (name: string): ChainNode[] => nodes(readSessionFile(sessionFile(name)).session);

  it('2.1.332 restores a model its catalogue does not know when the last model attachment names it; 2.1.197 falls back to its default', () => {
    const w = window('20-newest-client-models');
    expect(w.filter((n) => n.namesModel).map((n) => n.namesModel)).toEqual(['claude-opus-5-5', 'claude-sonnet-4-6', 'claude-sonnet-4-5', 'claude-opus-9-9']);
    expect(resumeModel(w, ON, CLIENT_2_1_332).model).toBe('claude-opus-9-9');
    const old = resumeModel(w, ON, CLIENT_2_1_197);
    expect(old.model).toBe('claude-opus-4-8');
    expect(old.basis).toMatch(/not a model Claude Code 2.1.197 knows/);
  });

  it('the newest client resumes on its own default, claude-opus-5-5, where a model is retired', () => {
    const retired = window('20-newest-client-models').filter((n) => n.model !== 'claude-opus-9-9' && n.namesModel !== 'claude-opus-9-9');
    // The session as it was before the last prompt: last reply on claude-sonnet-4-5, retired by 2.1.332 on 30 November 2026.
    expect(resumeModel(retired, ON, CLIENT_2_1_332)).toMatchObject({ model: 'claude-opus-5-5' });
    expect(resumeModel(retired, new Date('2026-11-01T00:00:00Z'), CLIENT_2_1_332).model).toBe('claude-sonnet-4-5');
    expect(resumeModel(retired, ON, CLIENT_2_1_197).model).toBe('claude-sonnet-4-5');
  });

  it('a version between two known ones follows the older; anything newer the newest', () => {
    expect(clientRules('2.1.250').version).toBe('2.1.197');
    expect(clientRules('2.1.332').version).toBe('2.1.332');
    expect(clientRules('2.2.0').version).toBe('2.1.332');
    expect(clientRules('1.0.98').version).toBe('2.1.197');
    expect(clientRules(undefined).version).toBe('2.1.332');
  });
});
