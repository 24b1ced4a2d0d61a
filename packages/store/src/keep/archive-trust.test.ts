// A copied or crafted archive: restore takes every manifest field as hostile. Played on a real session
// kept for real (fixture 04), whose manifest is then edited as an attacker would: a path outside every
// Claude Code session folder (restore would have created `~/.ssh.jsonl` and `~/.ssh/authorized_keys`),
// a session id holding `$(…)`, an agent Glassbox does not read; and a link planted at `<project>/<id>`
// before the restore. Nothing may be written anywhere, and the resume command quotes every part.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { scratchSession, type Scratch } from '@glassbox/test-support/store/fork';
import { keepSession } from './keep';
import { KeptArchive } from './kept-archive';
import { findKept } from './find';
import { restoreSession } from './restore';
import type { KeptManifest } from './manifest';

const agents = defaultAgents();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function keptScratch(): { s: Scratch; manifestPath: string; manifest: KeptManifest; roots: string[] } {
  const s = scratchSession('04-subagent-compact-multiturn');
  cleanups.push(() => rmSync(s.root, { recursive: true, force: true }));
  const r = keepSession(s.sourcePath, { archiveDir: s.archiveDir, agents });
  const folder = join(s.archiveDir, 'kept', r.key);
  const manifestPath = join(folder, readdirSync(folder).find((n) => n.endsWith('.json') && n !== 'gone.json') as string);
  return { s, manifestPath, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) as KeptManifest, roots: [join(s.root, 'projects')] };
}

function rewrite(path: string, m: KeptManifest): void {
  writeFileSync(path, JSON.stringify(m) + '\n');
}

/** Every path under `dir`. */
function all(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('restore of a crafted manifest', () => {
  it('refuses a path outside every session folder, and writes nothing there', () => {
    const k = keptScratch();
    const home = join(k.s.root, 'home');
    mkdirSync(home);
    rmSync(k.s.sourcePath);
    rewrite(k.manifestPath, { ...k.manifest, original: { ...k.manifest.original, path: join(home, '.ssh.jsonl'), configFolder: null } });
    expect(() => restoreSession(findKept(new KeptArchive(k.s.archiveDir), k.s.sessionId), { archiveDir: k.s.archiveDir, agents, roots: k.roots })).toThrow(/cannot be trusted: .*not in a Claude Code session folder/);
    expect(all(home)).toEqual([]);
    expect(existsSync(k.s.sourcePath)).toBe(false);
  });

  it('refuses a session id that is not one (`$(…)` would run when the resume command is pasted)', () => {
    const k = keptScratch();
    rmSync(k.s.sourcePath);
    rewrite(k.manifestPath, { ...k.manifest, sessionId: '$(touch /tmp/glassbox-pwned)' });
    expect(() => restoreSession(findKept(new KeptArchive(k.s.archiveDir), k.s.sourcePath), { archiveDir: k.s.archiveDir, agents, roots: k.roots })).toThrow(/is not a Claude Code session id/);
    expect(existsSync(k.s.sourcePath)).toBe(false);
  });

  it('refuses an agent it does not read, and a configuration folder that is not the path\'s', () => {
    const k = keptScratch();
    rmSync(k.s.sourcePath);
    const archive = () => findKept(new KeptArchive(k.s.archiveDir), k.s.sessionId);
    rewrite(k.manifestPath, { ...k.manifest, agent: 'other-agent' });
    expect(() => restoreSession(archive(), { archiveDir: k.s.archiveDir, agents, roots: k.roots })).toThrow(/does not read/);
    rewrite(k.manifestPath, { ...k.manifest, original: { ...k.manifest.original, configFolder: '/' } });
    expect(() => restoreSession(archive(), { archiveDir: k.s.archiveDir, agents, roots: k.roots })).toThrow(/configuration folder/);
    expect(existsSync(k.s.sourcePath)).toBe(false);
  });

  it('refuses a link planted at <project>/<id>, and writes nothing through it', () => {
    const k = keptScratch();
    rmSync(k.s.sourcePath);
    rmSync(join(k.s.projectDir, k.s.sessionId), { recursive: true, force: true });
    const elsewhere = join(k.s.root, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(k.s.projectDir, k.s.sessionId));
    expect(() => restoreSession(findKept(new KeptArchive(k.s.archiveDir), k.s.sessionId), { archiveDir: k.s.archiveDir, agents, roots: k.roots })).toThrow(/is a link .*nothing was written/);
    expect(all(elsewhere)).toEqual([]);
    expect(existsSync(k.s.sourcePath)).toBe(false);
  });

  it('still restores the manifest as it was kept', () => {
    const k = keptScratch();
    const before = readFileSync(k.s.sourcePath);
    rmSync(k.s.sourcePath);
    restoreSession(findKept(new KeptArchive(k.s.archiveDir), k.s.sessionId), { archiveDir: k.s.archiveDir, agents, roots: k.roots });
    expect(readFileSync(k.s.sourcePath).equals(before)).toBe(true);
  });
});

describe('the resume command', () => {
  it('quotes every part: an id, a path or a folder with shell syntax stays one word', () => {
    expect(claudeCodeFormat.resumeCommand('$(touch /tmp/x)', "/work/it's here")).toBe(`cd '/work/it'\\''s here' && claude --resume '$(touch /tmp/x)'`);
    expect(claudeCodeFormat.resumeCommand('--dangerously-skip-permissions', null)).toBe(`claude --resume '--dangerously-skip-permissions'`);
    expect(claudeCodeFormat.resumeCommand('0b4e…', null)).toBe(`claude --resume '0b4e…'`);
    const id = '2729d20d-7965-4d6d-bf47-53ae8f2e1750';
    expect(claudeCodeFormat.resumeCommand(id, '/tmp/project')).toBe(`cd /tmp/project && claude --resume ${id}`);
  });
});
