// Subagents in each generation: 0.61 names the subagent's chat in the parent's call; 0.38 keeps it
// beside the parent (chats/<parent id>/) without naming it; 0.28 writes it into the parent's chat.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatLines } from './parse-lines';
import { chatFiles, fixture, linesOf, mainChat } from '@glassbox/test-support/gemini/corpus';

describe('subagents', () => {
  it('0.61: the parent’s invoke_agent call names the subagent’s chat, which lies under chats/<parent id>/', () => {
    const f = fixture('02-subagent-error', '0.61');
    const s = parseChatLines(linesOf(mainChat(f)), { path: mainChat(f) });
    expect(s.subagents).toHaveLength(1);
    const ref = s.subagents[0];
    expect(ref?.path).toContain(`/chats/${s.id}/`);
    expect(existsSync(ref?.path ?? '')).toBe(true);
    const call = s.toolCalls.get(ref?.toolUseId ?? '');
    expect(call?.op).toMatchObject({ kind: 'subagent', agentId: ref?.agentId });
    const sub = parseChatLines(linesOf(ref?.path ?? ''), { path: ref?.path ?? '' });
    expect(sub.chatKind).toBe('subagent');
    expect(sub.agentId).toBe(ref?.agentId);
    expect([...sub.toolCalls.values()].map((c) => c.name).sort()).toEqual(['complete_task', 'read_file', 'read_file', 'read_file']);
  });

  it('0.38: the subagent’s chat has a short id of its own and its report as summary', () => {
    const f = fixture('02-subagent-error', '0.38');
    const path = chatFiles(f).find((p) => !p.includes('/chats/session-')) as string;
    const sub = parseChatLines(linesOf(path), { path });
    expect(sub.chatKind).toBe('subagent');
    expect(sub.id).toMatch(/^[a-z0-9]{6}$/);
    expect(sub.title).toContain('SummaryOfFindings');
    expect(sub.cwd).toBe(f.manifest.cwd);
  });

  it('0.28: the subagent’s task and replies are messages of the parent’s chat, and sent with it', () => {
    const f = fixture('02-subagent-error', '0.28');
    const s = parseChatLines(linesOf(mainChat(f)), { path: mainChat(f) });
    const prompts = [...s.nodes.values()].filter((n) => n.kind === 'prompt').map((n) => n.promptText ?? '');
    expect(prompts.some((p) => p.startsWith('Your task is to do a deep investigation'))).toBe(true);
    expect(s.subagents).toEqual([]);
  });
});
