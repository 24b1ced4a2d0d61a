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

  it('any other name: the first agent, as before', () => {
    const path = join(dir, 'notes.jsonl');
    writeFileSync(path, JSON.stringify({ name: 'glassbox' }) + '\n');
    expect(agentForFile(agents, path).format.id).toBe('claude-code');
  });
});
