// The Node side on the harness's chats: discovery (homes, one session per id, start-up stubs left out,
// subagent chats linked), reading, and bad input (a damaged document, one being rewritten, another
// program's JSON): each a problem naming the file and line, never a throw.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatRoots, discoverChats, geminiHomes } from './discover';
import { geminiLocator } from './locator';
import { readChatFile } from './read-file';
import { lastUpdatedOf } from './last-updated';
import { fixture, mainChat } from '@glassbox/test-support/gemini/corpus';

function home(scenario: string, version: string): string {
  const h = mkdtempSync(join(tmpdir(), 'gemini-home-'));
  cpSync(join(fixture(scenario, version).dir, 'gemini-tmp'), join(h, '.gemini', 'tmp'), { recursive: true });
  return h;
}

describe('discovery', () => {
  it('homes: each of GEMINI_CLI_HOME, else the user home; roots under .gemini/tmp', () => {
    expect(geminiHomes({}, '/u')).toEqual(['/u']);
    expect(geminiHomes({ GEMINI_CLI_HOME: '/a, ~/b,/a' }, '/u')).toEqual(['/a', '/u/b']);
    expect(geminiLocator.roots({ GEMINI_CLI_HOME: '/a' }, '/u')).toEqual(['/a/.gemini/tmp']);
  });

  it('0.61: the resume stub sharing the short id is not listed; the subagent chat is linked to its parent', () => {
    const h = home('02-subagent-error', '0.61');
    const found = discoverChats(chatRoots([h]));
    const sessions = found.filter((f) => f.kind === 'session');
    expect(sessions.map((f) => basename(f.path))).toEqual([basename(mainChat(fixture('02-subagent-error', '0.61')))]);
    const sub = found.find((f) => f.kind === 'subagent');
    expect(sub?.parentPath).toBe(sessions[0]?.path);
    expect(sub?.sessionId).toBe(sessions[0]?.sessionId);
  });

  it('two copies of one session: the later lastUpdated is kept, whichever file was written last', () => {
    // An append-only log cut after its first prompt's records is that same file as it was earlier:
    // what a hashed folder holds when 0.29+ copied it to the slug folder and the session went on there.
    const h = home('01-reads-edits-gone', '0.61');
    const full = discoverChats(chatRoots([h]))[0]?.path as string;
    const lines = readFileSync(full, 'utf8').split('\n');
    const cut = lines.findIndex((l, i) => i > 2 && l.includes('"I changed a couple'));
    expect(cut).toBeGreaterThan(0);
    const hashed = join(h, '.gemini/tmp', 'f'.repeat(64), 'chats');
    mkdirSync(hashed, { recursive: true });
    const early = join(hashed, basename(full));
    writeFileSync(early, lines.slice(0, cut).join('\n') + '\n');
    utimesSync(full, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    expect(statSync(early).mtimeMs).toBeGreaterThan(statSync(full).mtimeMs);
    expect(lastUpdatedOf(full)).toBeGreaterThan(lastUpdatedOf(early) as number);
    const sessions = discoverChats(chatRoots([h])).filter((f) => f.kind === 'session');
    expect(sessions.map((f) => f.path)).toEqual([full]);
  });

  it('copies with the same lastUpdated: the slug folder the current client resumes from, not the hashed one', () => {
    const h = home('01-reads-edits-gone', '0.38');
    const slugChat = discoverChats(chatRoots([h]))[0]?.path as string;
    cpSync(join(h, '.gemini/tmp/inventory'), join(h, '.gemini/tmp', 'a'.repeat(64)), { recursive: true });
    const now = new Date();
    utimesSync(join(h, '.gemini/tmp', 'a'.repeat(64), 'chats', basename(slugChat)), now, now);
    const sessions = discoverChats(chatRoots([h])).filter((f) => f.kind === 'session');
    expect(sessions.map((f) => f.path)).toEqual([slugChat]);
  });

  it('a session copied to a second project folder (0.29+ copies the hashed one) is listed once', () => {
    const h = home('01-reads-edits-gone', '0.38');
    cpSync(join(h, '.gemini/tmp/inventory'), join(h, '.gemini/tmp/inventory-copy'), { recursive: true });
    const sessions = discoverChats(chatRoots([h])).filter((f) => f.kind === 'session');
    expect(sessions).toHaveLength(1);
  });
});

describe('bad input, from disk', () => {
  it('a document cut short and not written for a while is damaged: not_a_transcript, naming file and line', () => {
    const h = home('01-reads-edits-gone', '0.38');
    const path = discoverChats(chatRoots([h]))[0]?.path as string;
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, Math.floor(text.length / 2)));
    utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const s = readChatFile(path);
    const p = s.problems[0];
    expect(p?.code).toBe('not_a_transcript');
    expect(p?.message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: the chat document is incomplete or damaged`));
    expect(p?.message).toContain('truncated or damaged');
  });

  it('a document cut short that was written a moment ago is being rewritten: busy (document_incomplete), not "not a session"', () => {
    const h = home('01-reads-edits-gone', '0.38');
    const path = discoverChats(chatRoots([h]))[0]?.path as string;
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, Math.floor(text.length / 3)));
    const s = readChatFile(path);
    expect(s.problems[0]?.code).toBe('document_incomplete');
    expect(s.problems[0]?.message).toMatch(/: Gemini CLI is rewriting this chat .*busy/);
  });

  it('another program’s JSON file is not a Gemini CLI chat, said with the file and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gemini-other-'));
    const path = join(dir, 'session-2026-12-02T04-26-aaaaaaaa.json');
    writeFileSync(path, JSON.stringify({ name: 'glassbox', private: true, version: '1.0.0' }, null, 2));
    const s = readChatFile(path);
    expect(s.problems[0]).toMatchObject({ code: 'not_a_transcript', line: 1 });
    expect(s.problems[0]?.message).toContain(`${path}:1:`);
  });
});
