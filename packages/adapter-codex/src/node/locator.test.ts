import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOONMIND_057, firstRollout, scenarioRollouts } from '@glassbox/test-support/codex/corpus';
import { codexLocator } from './locator';

/** A Codex home holding real rollouts: two live sessions (a session and its exec fork) and an archived one. */
function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'codex-loc-'));
  const day = join(h, 'sessions/2026/12/01');
  mkdirSync(day, { recursive: true });
  for (const p of scenarioRollouts('04-read-grammar-and-fork')) copyFileSync(p, join(day, basename(p)));
  mkdirSync(join(h, 'archived_sessions'));
  copyFileSync(MOONMIND_057, join(h, 'archived_sessions', basename(MOONMIND_057)));
  // Codex's own other files, which are not sessions.
  writeFileSync(join(h, 'history.jsonl'), '{"session_id":"x","ts":1,"text":"hi"}\n');
  writeFileSync(join(h, 'session_index.jsonl'), '{}\n');
  writeFileSync(join(day, basename(MOONMIND_057).replace('019a7ae6', '019a7ae7') + '.zst'), 'x');
  return h;
}

describe('the Codex locator', () => {
  it('looks in the sessions folders of every home in CODEX_HOME (one path or a comma list), default ~/.codex', () => {
    expect(codexLocator.roots({}, '/home/a')).toEqual(['/home/a/.codex/sessions', '/home/a/.codex/archived_sessions']);
    expect(codexLocator.roots({ CODEX_HOME: '/x, ~/y' }, '/home/a')).toEqual(['/x/sessions', '/x/archived_sessions', '/home/a/y/sessions', '/home/a/y/archived_sessions']);
  });

  it('finds every plain rollout as a session of the folder it ran in, and nothing else', () => {
    const h = home();
    const found = codexLocator.discover(codexLocator.roots({ CODEX_HOME: h }, '/nowhere'));
    expect(found.map((f) => [basename(f.path), f.root.slice(h.length), f.project, f.kind, f.sessionId, f.agent]).sort()).toEqual(
      [
        ...scenarioRollouts('04-read-grammar-and-fork').map((p) => [basename(p), '/sessions', 'project', 'session', basename(p).slice(-42, -6), 'codex']),
        [basename(MOONMIND_057), '/archived_sessions', 'MoonMind', 'session', '019a7ae6-1945-7c63-98f2-210adb922af9', 'codex'],
      ].sort(),
    );
    // A whole home given as a root finds the same files.
    expect(codexLocator.discover([h]).map((f) => f.path).sort()).toEqual(found.map((f) => f.path).sort());
  });

  it('describes a rollout opened from anywhere, and loads it as one thread', () => {
    const path = firstRollout('01-shell-reads-and-patch');
    expect(codexLocator.describe(path)).toEqual({
      agent: 'codex',
      path,
      project: 'project',
      kind: 'session',
      parentPath: null,
      agentId: null,
      sessionId: '01a22f8e-8cb7-7a50-a07d-a74fa42cad20',
    });
    const { session, subagents } = codexLocator.load(path);
    expect([session.id, session.agent, subagents]).toEqual(['01a22f8e-8cb7-7a50-a07d-a74fa42cad20', 'codex', []]);
    expect(codexLocator.parseFile(path).stats.records).toBe(session.stats.records);
  });

  it('names a file it cannot read by its own name, in an unknown folder', () => {
    const missing = join(tmpdir(), 'rollout-2026-12-01T00-00-00-01a22f8e-0000-7000-8000-000000000000.jsonl');
    expect(codexLocator.describe(missing)).toMatchObject({ project: '(unknown folder)', sessionId: '01a22f8e-0000-7000-8000-000000000000' });
  });
});
