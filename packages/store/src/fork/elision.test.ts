import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROVABLE_CLASSES, elisionProblem, tombstoneHash, parseElided, type AppliedAction, type DeadClass, type ProofOf } from '@glassbox/core';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';
import { Archive, sha256Hex } from './archive';
import { elisionCheck } from './elision';
import { planFromFile, type FilePlanOptions } from './plan-lines';
import { REPO_ROOT, useScratches } from '@glassbox/test-support/store/fork';
import { writeFork } from './writer';
import { showSegment } from './ops';

const TEST_AGENTS = defaultAgents();
const scratch = useScratches();
const ELIDE = { overTokens: 500, keep: { chars: 600, lines: 10 } };

function writeElided(sourcePath: string, archiveDir: string, repoRoot: string, classes: DeadClass[] = ['elided'], elide = ELIDE) {
  const options = (forkId: string): FilePlanOptions => ({ agent: agentForFile(TEST_AGENTS, sourcePath), repoRoot, classes, elide, protectTail: 0, minimumSavings: 0, forkSessionId: forkId });
  const result = writeFork({
    agents: TEST_AGENTS,
    sourcePath,
    archiveDir,
    prepare: (src) => {
      const plan = planFromFile(src.path, options(src.forkId));
      return { actions: plan.actions, cwd: plan.session.cwd, indexed: plan.indexed, session: plan.session };
    },
  });
  if (result.status !== 'written') throw new Error(`refused: ${JSON.stringify(result.report.checks.filter((c) => !c.ok))}`);
  return result;
}

/** Every elision the fork wrote is faithful to the payload it replaced, and its middle is in the archive. */
function expectRecoverable(result: ReturnType<typeof writeElided>, archiveDir: string): void {
  const archive = new Archive(archiveDir);
  const elisions = result.manifest.actions.filter((a) => a.class === 'elided');
  expect(elisions.length).toBeGreaterThan(0);
  expect(result.report.checks.find((c) => c.id === 'elisions')?.ok).toBe(true);
  for (const a of elisions) {
    const sent = a.removed.find((r) => r.sentToModel);
    if (!sent || !a.elision) throw new Error('an elision without its payload or middle');
    const original = archive.get(sent.sha256).toString('utf8');
    const middle = archive.get(a.elision.sha256).toString('utf8');
    const [reading] = parseElided(a.tombstone);
    expect(reading?.head.concat(middle, reading.tail)).toBe(original);
    expect(a.elision.sha256.startsWith(reading?.marker.sha256Prefix ?? 'x')).toBe(true);
    expect(elisionProblem(original, a.tombstone, sha256Hex)).toBeNull();
  }
  // In the fork's bytes, each elided text replaces its payload.
  const fork = readFileSync(result.forkPath, 'utf8');
  for (const a of elisions) expect(fork).toContain(JSON.stringify(a.tombstone).slice(1, 200));
}

describe('forks with elisions', () => {
  it('Claude Code: keeps exact ends, archives the middle, passes validation', () => {
    const s = scratch('03-large-outputs');
    const result = writeElided(s.sourcePath, s.archiveDir, s.repoRoot);
    expectRecoverable(result, s.archiveDir);
  });

  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('Codex: the same, on a real rollout', () => {
    const fixture = join(REPO_ROOT, 'fixtures/corpus/codex/03-long-session-compaction');
    const root = mkdtempSync(join(tmpdir(), 'glassbox-codex-elide-'));
    made.push(root);
    const day = join(fixture, 'sessions/2026/12/01');
    const name = readdirSync(day).find((n) => n.endsWith('.jsonl')) as string;
    const target = join(root, 'home/sessions/2026/12/01');
    mkdirSync(target, { recursive: true });
    copyFileSync(join(day, name), join(target, name));
    const result = writeElided(join(target, name), join(root, 'archive'), join(fixture, 'project-after'));
    expectRecoverable(result, join(root, 'archive'));
  });

  it('the check refuses an elision whose ends or hash are not the payload’s', () => {
    const original = Array.from({ length: 100 }, (_, i) => `log line ${i}`).join('\n');
    const applied = (tombstone: string): AppliedAction => ({
      action: { uuid: 'u', blockIndex: 0, target: 'tool-result', tombstone, class: 'elided' } as AppliedAction['action'],
      line: 3,
      toolName: 'Bash',
      removed: [{ path: 'x', text: original, sentToModel: true }],
      bytesBefore: original.length,
      bytesAfter: tombstone.length,
    });
    const bad = `log line 0\n[… 98 lines (1.1k chars) elided by glassbox — recall ${'0'.repeat(12)} …]\nlog line 99`;
    const check = elisionCheck([applied(bad)]);
    expect(check?.ok).toBe(false);
    expect(check?.failures[0]?.detail).toMatch(/hash/);
  });
});

/** The YYYY/MM/DD folder a fixture's rollout sits in (Codex files sessions by day). */
function dayOf(sessions: string): string[] {
  const y = readdirSync(sessions)[0] as string;
  const m = readdirSync(join(sessions, y))[0] as string;
  return [y, m, readdirSync(join(sessions, y, m))[0] as string];
}

describe('a fork with elisions, read again', () => {
  it('shows each elision as a tombstone of its middle, never planned again', () => {
    const s = scratch('03-large-outputs');
    const result = writeElided(s.sourcePath, s.archiveDir, s.repoRoot);
    const again = planFromFile(result.forkPath, { agent: agentForFile(TEST_AGENTS, result.forkPath), repoRoot: s.repoRoot, classes: ['elided'], elide: ELIDE, protectTail: 0, minimumSavings: 0 });
    const marks = again.snapshot.segments.filter((seg) => seg.class === 'tombstone');
    const middles = result.manifest.actions.filter((a) => a.elision).map((a) => a.elision?.sha256.slice(0, 12));
    expect(marks.map((m) => (m.proof as { sha256Prefix: string | null }).sha256Prefix).sort()).toEqual(expect.arrayContaining([...middles].sort()));
    expect(again.plan.actions.filter((a) => middles.some((m) => a.tombstone.includes(m ?? 'x')))).toEqual([]);
    // Each elision is marked as one (the window colours it as elided), and only those are.
    const elided = marks.filter((m) => (m.proof as ProofOf<'tombstone'>).elided === true).map((m) => (m.proof as ProofOf<'tombstone'>).sha256Prefix);
    expect([...elided].sort()).toEqual([...middles].sort());
  });

  it('Codex: a fork carries tombstones and elisions together, and reads both back as Glassbox\u2019s, never planned again', () => {
    // Fixture 01 has proven dead outputs and, over a low threshold, outputs to elide.
    const fixture = join(REPO_ROOT, 'fixtures/corpus/codex/01-shell-reads-and-patch');
    const small = { overTokens: 120, keep: { chars: 200, lines: 4 } };
    const root = mkdtempSync(join(tmpdir(), 'glassbox-codex-elide-'));
    try {
      const day = join(fixture, 'sessions', ...dayOf(join(fixture, 'sessions')));
      const name = readdirSync(day).find((n) => n.endsWith('.jsonl')) as string;
      const target = join(root, 'home/sessions', ...dayOf(join(fixture, 'sessions')));
      mkdirSync(target, { recursive: true });
      copyFileSync(join(day, name), join(target, name));
      const repoRoot = join(fixture, 'project-after');
      const archiveDir = join(root, 'archive');
      const result = writeElided(join(target, name), archiveDir, repoRoot, [...PROVABLE_CLASSES, 'elided'], small);
      expectRecoverable(result, archiveDir);
      const tombstoned = result.manifest.actions.filter((a) => !a.elision);
      expect(tombstoned.length).toBeGreaterThan(0);
      expect(result.report.ok).toBe(true);

      // The fork read again by the Codex adapter: every payload Glassbox replaced is a tombstone naming its archived bytes.
      const again = planFromFile(result.forkPath, { agent: agentForFile(TEST_AGENTS, result.forkPath), repoRoot, classes: [...PROVABLE_CLASSES, 'elided'], elide: small, protectTail: 0, minimumSavings: 0 });
      const marks = again.snapshot.segments.filter((seg) => seg.class === 'tombstone').map((seg) => seg.proof as ProofOf<'tombstone'>);
      const middles = result.manifest.actions.filter((a) => a.elision).map((a) => a.elision?.sha256.slice(0, 12) ?? '');
      const payloads = tombstoned.map((a) => tombstoneHash(a.tombstone));
      expect(marks.filter((m) => m.elided).map((m) => m.sha256Prefix).sort()).toEqual([...middles].sort());
      expect(marks.filter((m) => !m.elided).map((m) => m.sha256Prefix).sort()).toEqual([...payloads].sort());
      const written = new Set(result.manifest.actions.map((a) => a.segmentId));
      expect(again.plan.actions.filter((a) => written.has(a.segmentId))).toEqual([]);

      // The middle comes back by the marker's prefix, hash-checked, and makes the original whole again.
      const first = result.manifest.actions.find((a) => a.elision);
      const shown = showSegment(result.forkId, middles[0] as string, { agents: TEST_AGENTS, archiveDir });
      expect(shown[0]?.sha256).toBe(first?.elision?.sha256);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
