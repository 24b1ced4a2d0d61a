import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeCodeRetention, configFolderOf } from './retention';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const FIXTURE = join(REPO, 'fixtures/corpus/generated/04-subagent-compact-multiturn');
const SESSION_ID = 'db5075e3-fee3-4d57-a736-cd3f2035f95a';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A configuration folder holding a real session (fixture 04: subagent, checkpoint backups), a project folder and a policy folder. */
function machine() {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-retention-'));
  made.push(root);
  const config = join(root, 'home', '.claude');
  const projectDir = join(config, 'projects', '-work-proj');
  cpSync(join(FIXTURE, 'claude-project'), projectDir, { recursive: true });
  cpSync(join(FIXTURE, 'file-history'), join(config, 'file-history'), { recursive: true });
  const cwd = join(root, 'proj');
  mkdirSync(join(cwd, '.claude'), { recursive: true });
  const managed = join(root, 'etc');
  mkdirSync(managed);
  return { config, cwd, managed, session: join(projectDir, `${SESSION_ID}.jsonl`) };
}

describe('configFolderOf', () => {
  it('is the folder above projects/ for sessions and their subagent files, null elsewhere', () => {
    expect(configFolderOf('/h/.claude/projects/-p/a.jsonl')).toBe('/h/.claude');
    expect(configFolderOf('/h/.claude/projects/-p/a/subagents/agent-x.jsonl')).toBe('/h/.claude');
    expect(configFolderOf('/tmp/a.jsonl')).toBeNull();
    expect(configFolderOf('/h/.claude/projects/a.jsonl')).toBeNull();
  });
});

describe('claudeCodeRetention', () => {
  it('reads the configuration folder the session lives in, and its project settings', () => {
    const m = machine();
    const retention = claudeCodeRetention({ managedDir: m.managed });
    expect(retention.ruleFor(m.session, m.cwd)).toMatchObject({ kind: 'deletes', days: 30 });
    writeFileSync(join(m.config, 'settings.json'), '{"cleanupPeriodDays": 10}');
    expect(retention.ruleFor(m.session, m.cwd)).toMatchObject({ kind: 'deletes', days: 10, decidedBy: `cleanupPeriodDays 10 in ${join(m.config, 'settings.json')}` });
    // Shorter in the project: that is when it goes (the client run there deletes it).
    writeFileSync(join(m.cwd, '.claude', 'settings.local.json'), '{"cleanupPeriodDays": 3}');
    expect(retention.ruleFor(m.session, m.cwd)).toMatchObject({ kind: 'deletes', days: 3 });
    expect(retention.ruleFor(m.session, null)).toMatchObject({ kind: 'deletes', days: 10 });
  });

  it('plans for the earlier date when the project lengthens the period: a run anywhere else still deletes it', () => {
    const m = machine();
    const retention = claudeCodeRetention({ managedDir: m.managed });
    writeFileSync(join(m.config, 'settings.json'), '{"cleanupPeriodDays": 10}');
    writeFileSync(join(m.cwd, '.claude', 'settings.json'), '{"cleanupPeriodDays": 100}');
    const r = retention.ruleFor(m.session, m.cwd);
    expect(r).toMatchObject({ kind: 'deletes', days: 10 });
    expect(r.decidedBy).toBe(`cleanupPeriodDays 10 in ${join(m.config, 'settings.json')}, when Claude Code runs outside ${m.cwd} (inside it: 100 days)`);
  });

  it('lets the managed policy decide, drop-ins after the main file', () => {
    const m = machine();
    writeFileSync(join(m.config, 'settings.json'), '{"cleanupPeriodDays": 0}');
    writeFileSync(join(m.managed, 'managed-settings.json'), '{"cleanupPeriodDays": 60}');
    mkdirSync(join(m.managed, 'managed-settings.d'));
    writeFileSync(join(m.managed, 'managed-settings.d', '20-short.json'), '{"cleanupPeriodDays": 20}');
    writeFileSync(join(m.managed, 'managed-settings.d', '.hidden.json'), '{"cleanupPeriodDays": 1}');
    expect(claudeCodeRetention({ managedDir: m.managed }).ruleFor(m.session, m.cwd)).toMatchObject({ kind: 'deletes', days: 20 });
  });

  it('reads a settings file again when it changes', () => {
    const m = machine();
    const retention = claudeCodeRetention({ managedDir: m.managed });
    const file = join(m.config, 'settings.json');
    writeFileSync(file, '{"cleanupPeriodDays": 10}');
    expect(retention.ruleFor(m.session, null)).toMatchObject({ days: 10 });
    writeFileSync(file, '{"cleanupPeriodDays": 0, "other": true}');
    expect(retention.ruleFor(m.session, null).kind).toBe('never');
  });

  it('never deletes a file outside a configuration folder', () => {
    expect(claudeCodeRetention().ruleFor(join(FIXTURE, 'transcript.jsonl'), null)).toMatchObject({ kind: 'never' });
  });

  it('names the folders that go with a session, and puts each part back where it was', () => {
    const m = machine();
    const retention = claudeCodeRetention({ managedDir: m.managed });
    const layout = retention.layoutOf(m.session);
    const folder = join(dirname(m.session), SESSION_ID);
    expect(layout.parts).toEqual([
      { name: 'session-folder', path: folder, kind: 'folder' },
      { name: 'file-history', path: join(m.config, 'file-history', SESSION_ID), kind: 'folder' },
    ]);
    for (const p of layout.parts) expect(retention.placeOf(m.session, p.name)).toEqual({ path: p.path, kind: p.kind });
    expect(retention.placeOf(m.session, 'beside/agent-a1.jsonl')).toEqual({ path: join(dirname(m.session), 'agent-a1.jsonl'), kind: 'file' });
    expect(retention.placeOf(m.session, 'beside/../x.jsonl')).toBeNull();
    expect(retention.placeOf(m.session, 'elsewhere')).toBeNull();
  });

  it('finds legacy subagent files beside a session by the session id they name', () => {
    const m = machine();
    const sub = readFileSync(join(dirname(m.session), SESSION_ID, 'subagents', 'agent-abce44d6f33b694ad.jsonl'));
    writeFileSync(join(dirname(m.session), 'agent-legacy1.jsonl'), sub);
    writeFileSync(join(dirname(m.session), 'agent-other.jsonl'), readFileSync(join(REPO, 'fixtures/corpus/generated/01-superseded-reads/transcript.jsonl')));
    const names = claudeCodeRetention({ managedDir: m.managed }).layoutOf(m.session).parts.map((p) => p.name);
    expect(names).toContain('beside/agent-legacy1.jsonl');
    expect(names).not.toContain('beside/agent-other.jsonl');
  });
});
