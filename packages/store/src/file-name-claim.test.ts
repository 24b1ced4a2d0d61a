// A file no adapter recognises by content is read by the agent whose client alone names files so:
// another program's JSON saved as a Gemini CLI chat name is refused by the Gemini parser ("not a
// Gemini CLI chat", with the file and line), not by Claude Code's ("not a Claude Code transcript").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentForFile } from '@glassbox/file-io';
import { defaultAgents } from '@glassbox/agents';

describe('which agent reads a file nobody recognises', () => {
  const agents = defaultAgents();
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-claim-'));

  it('named like a Gemini CLI chat: Gemini CLI, which names the file and line', () => {
    const path = join(dir, 'session-2026-12-02T04-27-aaaaaaaa.json');
    writeFileSync(path, JSON.stringify({ name: 'glassbox', version: '1.0.0' }));
    const agent = agentForFile(agents, path);
    expect(agent.format.id).toBe('gemini');
    expect(agent.locator.parseFile(path).problems[0]?.message).toBe(`${path}:1: this is not a Gemini CLI chat (its first record names no sessionId and projectHash)`);
  });

  // The client's two other kinds of JSON file, laid out as its source writes them (checkpointUtils.ts,
  // logger.ts: `JSON.stringify(…, null, 2)`): neither is a session, and the message says which it is.
  it('a restore point (checkpoints/) and a /chat save file: refused by Gemini CLI, naming what they are', () => {
    const point = join(dir, '2026-12-02T04-11-12_345Z-report.py-replace.json');
    writeFileSync(point, JSON.stringify({ history: [], clientHistory: [], toolCall: { name: 'replace', args: {} }, commitHash: 'abc', messageId: 'p1' }, null, 2));
    const saved = join(dir, 'checkpoint-before-refactor.json');
    writeFileSync(saved, JSON.stringify({ history: [{ role: 'user', parts: [{ text: 'hi' }] }], authType: 'gemini-api-key' }, null, 2));
    const legacy = join(dir, 'checkpoint-old.json');
    writeFileSync(legacy, JSON.stringify([{ role: 'user', parts: [{ text: 'hi' }] }], null, 2));
    for (const [path, what] of [[point, 'a Gemini CLI restore point'], [saved, '/chat save'], [legacy, '/chat save']] as const) {
      const agent = agentForFile(agents, path);
      expect(agent.format.id, path).toBe('gemini');
      const p = agent.locator.parseFile(path).problems[0];
      expect(p?.code).toBe('not_a_transcript');
      expect(p?.message.startsWith(`${path}:1: this is `)).toBe(true);
      expect(p?.message).toContain(what);
    }
  });

  it('any other name: the first agent, as before', () => {
    const path = join(dir, 'notes.jsonl');
    writeFileSync(path, JSON.stringify({ name: 'glassbox' }) + '\n');
    expect(agentForFile(agents, path).format.id).toBe('claude-code');
  });
});
