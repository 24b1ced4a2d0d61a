// Gemini CLI's clean-up on disk: the settings it reads for a chat's project, and what it deletes with
// a session (its subagent chats, saved outputs, activity log, session folder), on the harness's chats.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatRoots, discoverChats } from './discover';
import { geminiConfigFolderOf, geminiRetention, systemSettingsPath } from './retention';
import { fixture } from '@glassbox/test-support/gemini/corpus';

function home(scenario: string, version: string): string {
  const h = mkdtempSync(join(tmpdir(), 'gemini-retention-'));
  cpSync(join(fixture(scenario, version).dir, 'gemini-tmp'), join(h, '.gemini', 'tmp'), { recursive: true });
  return h;
}

const NO_SYSTEM = { env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/nonexistent/gemini-system.json' } };

describe('Gemini CLI retention', () => {
  it('the configuration folder of a main chat and a subagent chat; none elsewhere', () => {
    const h = home('02-subagent-error', '0.61');
    const found = discoverChats(chatRoots([h]));
    for (const f of found) expect(geminiConfigFolderOf(f.path), f.path).toBe(join(h, '.gemini'));
    expect(geminiConfigFolderOf('/tmp/elsewhere/session-2026-12-02T04-03-36f657a0.jsonl')).toBeNull();
    expect(systemSettingsPath({}, 'linux')).toBe('/etc/gemini-cli/settings.json');
    expect(systemSettingsPath({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/x.json' }, 'linux')).toBe('/x.json');
  });

  it('the default, then the user’s ~/.gemini/settings.json, then the project’s (the earlier rule of the two)', () => {
    const h = home('01-reads-edits-gone', '0.61');
    const chat = discoverChats(chatRoots([h]))[0]?.path as string;
    const cwd = mkdtempSync(join(tmpdir(), 'gemini-project-'));
    expect(geminiRetention(NO_SYSTEM).ruleFor(chat, cwd)).toMatchObject({ kind: 'deletes', days: 30 });
    writeFileSync(join(h, '.gemini', 'settings.json'), JSON.stringify({ general: { sessionRetention: { maxAge: '10d' } } }));
    expect(geminiRetention(NO_SYSTEM).ruleFor(chat, cwd)).toMatchObject({ kind: 'deletes', days: 10, decidedBy: expect.stringContaining(join(h, '.gemini', 'settings.json')) });
    mkdirSync(join(cwd, '.gemini'));
    writeFileSync(join(cwd, '.gemini', 'settings.json'), JSON.stringify({ general: { sessionRetention: { maxAge: '2d' } } }));
    expect(geminiRetention(NO_SYSTEM).ruleFor(chat, cwd)).toMatchObject({ kind: 'deletes', days: 2 });
  });

  it('what goes with a session: its subagent chats, saved outputs, activity log and session folder, placed back by its id', () => {
    const h = home('04-output-masking', '0.61');
    const chat = discoverChats(chatRoots([h]))[0]?.path as string;
    const id = '37c10cb4-b4a0-4718-bddf-85c570877dee';
    const project = dirname(dirname(chat));
    const r = geminiRetention(NO_SYSTEM);
    expect(r.layoutOf(chat).parts).toEqual([
      { name: 'subagent-chats', path: join(project, 'chats', id), kind: 'folder' },
      { name: 'tool-outputs', path: join(project, 'tool-outputs', `session-${id}`), kind: 'folder' },
      { name: 'activity-log', path: join(project, 'logs', `session-${id}.jsonl`), kind: 'file' },
      { name: 'session-folder', path: join(project, id), kind: 'folder' },
    ]);
    // A restore knows the id before the chat is back: the name alone holds only its first 8 characters.
    const gone = join(project, 'chats', 'session-2026-12-02T04-15-37c10cb4.jsonl.absent');
    expect(r.placeOf(chat, 'tool-outputs')).toEqual({ path: join(project, 'tool-outputs', `session-${id}`), kind: 'folder' });
    expect(r.placeOf(join(project, 'chats', 'session-2026-12-02T04-15-37c10cb4.jsonl'), 'tool-outputs', id)?.path).toBe(join(project, 'tool-outputs', `session-${id}`));
    expect(r.placeOf(gone, 'tool-outputs', id)).toBeNull();
    expect(r.placeOf(chat, 'settings')).toBeNull();
  });
});
