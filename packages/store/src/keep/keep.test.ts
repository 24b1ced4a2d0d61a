// Keep and restore, played on scratch copies of real sessions laid out as in a Claude Code
// configuration folder (fixture 04: a subagent file with its meta, three checkpoint backups; 03: a
// persisted tool result): what is stored, what a second keep and a grown session cost, what a restore
// writes back, and that a corrupted chunk is never used.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, appendFileSync, writeFileSync, mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { scratchSession, tree, type Scratch } from '@glassbox/test-support/store/fork';
import { keepSession } from './keep';
import { KeptArchive } from './kept-archive';
import { findKept } from './find';
import { restoreSession } from './restore';
import { KeepError } from './errors';
import { verifyArchive } from './verify';
import { planPrune, applyPrune } from './prune';
import { archiveReport } from './report';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const agents = defaultAgents();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function scratch(name: string): Scratch {
  const s = scratchSession(name);
  cleanups.push(() => rmSync(s.root, { recursive: true, force: true }));
  return s;
}

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** Every file of the session (transcript, its folder, its checkpoint backups) with its hash. */
function sessionFiles(s: Scratch): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (base: string, dir: string) => {
    for (const rel of tree(dir)) if (!rel.endsWith('/')) out[`${base}/${rel}`] = sha(join(dir, rel));
  };
  out['transcript'] = sha(s.sourcePath);
  add('session', join(s.projectDir, s.sessionId));
  add('history', join(s.root, 'file-history', s.sessionId));
  return out;
}

function keep(s: Scratch, now = new Date('2026-12-01T10:00:00.000Z')) {
  return keepSession(s.sourcePath, { archiveDir: s.archiveDir, agents, now: () => now });
}

function deleteLikeTheClient(s: Scratch): void {
  rmSync(s.sourcePath);
  rmSync(join(s.projectDir, s.sessionId), { recursive: true, force: true });
  rmSync(join(s.root, 'file-history', s.sessionId), { recursive: true, force: true });
}

describe('keepSession', () => {
  it('stores the transcript, its subagent files and its checkpoint backups, and writes nothing beside them', () => {
    const s = scratch('04-subagent-compact-multiturn');
    const before = sessionFiles(s);
    const projectTree = tree(s.projectDir);
    const r = keep(s);
    expect(r.status).toBe('kept');
    expect(r.sessionId).toBe(s.sessionId);
    // transcript, subagent transcript + meta, three backups
    expect(r.files).toBe(6);
    expect(r.skipped).toEqual([]);
    expect(sessionFiles(s)).toEqual(before);
    expect(tree(s.projectDir)).toEqual(projectTree);
    const m = new KeptArchive(s.archiveDir).session(r.key)?.latest;
    expect(m?.parts.map((p) => [p.name, p.files.map((f) => f.rel)])).toEqual([
      ['session-folder', ['subagents/agent-abce44d6f33b694ad.jsonl', 'subagents/agent-abce44d6f33b694ad.meta.json']],
      ['file-history', ['3fb5c54520d9badb@v1', '3fb5c54520d9badb@v2', '57b2afb68aefad44@v1']],
    ]);
    expect(m?.original).toMatchObject({ path: s.sourcePath, configFolder: s.root, project: 'scratch-project', cwd: expect.any(String) });
    expect(m?.transcript).toMatchObject({ bytes: statSync(s.sourcePath).size, sha256: before['transcript'], mtimeMs: statSync(s.sourcePath).mtimeMs });
    // Compressed: JSONL takes a fraction of its size.
    expect(r.writtenBytes).toBeLessThan(r.bytes / 3);
  });

  it('writes no new version and no chunk when nothing changed', () => {
    const s = scratch('04-subagent-compact-multiturn');
    const first = keep(s);
    const again = keep(s, new Date('2026-12-02T10:00:00.000Z'));
    expect(again).toMatchObject({ status: 'unchanged', version: null, newChunks: 0, writtenBytes: 0 });
    expect(again.reusedChunks).toBeGreaterThan(0);
    expect(new KeptArchive(s.archiveDir).versions(first.key)).toHaveLength(1);
  });

  it('stores a grown session as its new tail: the chunks of the unchanged prefix are reused', () => {
    const s = scratch('03-large-outputs');
    const full = readFileSync(s.sourcePath);
    const lines = full.toString('utf8').split('\n');
    const half = Buffer.byteLength(lines.slice(0, Math.floor(lines.length / 2)).join('\n') + '\n');
    truncateSync(s.sourcePath, half);
    const first = keep(s);
    appendFileSync(s.sourcePath, full.subarray(half));
    const second = keep(s, new Date('2026-12-01T11:00:00.000Z'));
    expect(second.status).toBe('kept');
    expect(second.reusedChunks).toBeGreaterThan(0);
    // The tail (and the last chunk of the first keep, re-cut) — far less than the whole file again.
    const tail = full.length - half;
    expect(second.writtenBytes).toBeLessThan(first.writtenBytes);
    expect(second.writtenBytes).toBeLessThan(tail);
    const archive = new KeptArchive(s.archiveDir);
    expect(archive.versions(first.key)).toHaveLength(2);
    // The newest version reads back as the grown file, byte for byte.
    deleteLikeTheClient(s);
    restoreSession(findKept(archive, s.sessionId), { archiveDir: s.archiveDir, agents, roots: [join(s.root, 'projects')] });
    expect(readFileSync(s.sourcePath).equals(full)).toBe(true);
  });

  it('leaves out a link in the session folder and says so, never reading through it', () => {
    const s = scratch('04-subagent-compact-multiturn');
    const secret = join(s.root, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-VALUE');
    symlinkSync(secret, join(s.projectDir, s.sessionId, 'subagents', 'agent-link.jsonl'));
    const r = keep(s);
    expect(r.skipped).toEqual([{ path: join(s.projectDir, s.sessionId, 'subagents', 'agent-link.jsonl'), reason: 'is a symbolic link (never followed)' }]);
    const chunks = new KeptArchive(s.archiveDir).chunks;
    expect(chunks.list().map((c) => chunks.get(c).toString('latin1')).join('')).not.toContain('TOP-SECRET-VALUE');
  });

  it('refuses a file that is not there, and a subagent file', () => {
    const s = scratch('04-subagent-compact-multiturn');
    expect(() => keepSession(join(s.projectDir, 'nope.jsonl'), { archiveDir: s.archiveDir, agents })).toThrow(/no such file; nothing was kept/);
    expect(() => keepSession(join(s.projectDir, s.sessionId, 'subagents', 'agent-abce44d6f33b694ad.jsonl'), { archiveDir: s.archiveDir, agents })).toThrow(/is a subagent file/);
  });
});

describe('restoreSession', () => {
  it('writes every file back where it was, with its bytes and permission bits, the transcript last', () => {
    const s = scratch('04-subagent-compact-multiturn');
    chmodSync(s.sourcePath, 0o640);
    const before = sessionFiles(s);
    keep(s);
    deleteLikeTheClient(s);
    const r = restoreSession(findKept(new KeptArchive(s.archiveDir), s.sessionId), { archiveDir: s.archiveDir, agents, roots: [join(s.root, 'projects')] });
    expect(r.path).toBe(s.sourcePath);
    expect(r.written.at(-1)).toBe(s.sourcePath);
    expect(r.written).toHaveLength(6);
    expect(sessionFiles(s)).toEqual(before);
    expect(statSync(s.sourcePath).mode & 0o777).toBe(0o640);
    // A new file: the client's clean-up period starts again now.
    expect(Date.now() - statSync(s.sourcePath).mtimeMs).toBeLessThan(60_000);
  });

  it('never writes over a file: a transcript that is there refuses, a side file with other bytes refuses, the same bytes are fine', () => {
    const s = scratch('04-subagent-compact-multiturn');
    keep(s);
    const kept = () => findKept(new KeptArchive(s.archiveDir), s.sessionId);
    expect(() => restoreSession(kept(), { archiveDir: s.archiveDir, agents, roots: [join(s.root, 'projects')] })).toThrow(/is there: a restore never writes over a file/);
    rmSync(s.sourcePath);
    const meta = join(s.projectDir, s.sessionId, 'subagents', 'agent-abce44d6f33b694ad.meta.json');
    const original = readFileSync(meta);
    writeFileSync(meta, '{"edited":true}');
    const treeBefore = tree(s.root);
    expect(() => restoreSession(kept(), { archiveDir: s.archiveDir, agents, roots: [join(s.root, 'projects')] })).toThrow(/with other bytes than the kept copy/);
    expect(tree(s.root)).toEqual(treeBefore);
    writeFileSync(meta, original);
    const r = restoreSession(kept(), { archiveDir: s.archiveDir, agents, roots: [join(s.root, 'projects')] });
    expect(r.alreadyThere).toHaveLength(5);
    expect(r.written).toEqual([s.sourcePath]);
  });

  it('never uses a corrupted chunk: the restore is refused, nothing is written, verify names it', () => {
    const s = scratch('04-subagent-compact-multiturn');
    const r = keep(s);
    deleteLikeTheClient(s);
    const archive = new KeptArchive(s.archiveDir);
    const [first] = archive.session(r.key)?.latest.transcript.chunks[0] ?? [];
    const chunkPath = join(s.archiveDir, 'chunks', String(first).slice(0, 2), String(first));
    const bytes = readFileSync(chunkPath);
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] as number) ^ 0xff;
    writeFileSync(chunkPath, bytes);
    const treeBefore = tree(s.root);
    let error: unknown;
    try {
      restoreSession(findKept(archive, s.sessionId), { archiveDir: s.archiveDir, agents, roots: [join(s.root, 'projects')] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(KeepError);
    expect((error as KeepError).code).toBe('archive_corrupt');
    expect(tree(s.root)).toEqual(treeBefore);
    const v = verifyArchive(s.archiveDir, TEST_AGENTS);
    expect(v.ok).toBe(false);
    expect(v.problems.join('\n')).toContain(chunkPath);
  });
});

describe('the archive', () => {
  it('reports what it holds, verifies clean, and prunes what is older than the cut-off (dry run first)', () => {
    const s = scratch('04-subagent-compact-multiturn');
    keep(s);
    appendFileSync(s.sourcePath, readFileSync(s.sourcePath).subarray(0, 2000).toString('utf8').split('\n')[0] + '\n');
    const active = new Date('2026-12-02T12:00:00.000Z');
    utimesSync(s.sourcePath, active, active);
    keep(s, new Date('2026-12-03T10:00:00.000Z'));
    const report = archiveReport(s.archiveDir);
    expect(report.totals).toMatchObject({ sessions: 1, versions: 2 });
    expect(report.byProject.map((p) => p.project)).toEqual(['scratch-project']);
    expect(report.totals.storedBytes).toBeLessThan(report.totals.allVersionsBytes);
    expect(verifyArchive(s.archiveDir, TEST_AGENTS)).toMatchObject({ ok: true, sessions: 1, versions: 2, files: 6, problems: [] });

    // Superseded versions kept before the cut-off go; the newest stays.
    const plan = planPrune(s.archiveDir, new Date('2026-12-02T00:00:00.000Z'));
    expect(plan.sessions).toEqual([]);
    expect(plan.versions).toHaveLength(1);
    expect(archiveReport(s.archiveDir).totals.versions).toBe(2);
    const done = applyPrune(s.archiveDir, new Date('2026-12-02T00:00:00.000Z'));
    expect(done).toMatchObject({ removedSessions: 0, removedVersions: 1 });
    expect(verifyArchive(s.archiveDir, TEST_AGENTS).ok).toBe(true);

    // A session last active before the cut-off goes whole, and so do its chunks.
    const all = applyPrune(s.archiveDir, new Date('2026-12-02T13:00:00.000Z'));
    expect(all.removedSessions).toBe(1);
    expect(new KeptArchive(s.archiveDir).chunks.list()).toEqual([]);
    expect(readdirSync(join(s.archiveDir, 'kept')).filter((n) => !n.startsWith('.'))).toEqual([]);
  });

  it('lists nothing for an empty or missing archive', () => {
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-empty-archive-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    expect(archiveReport(join(dir, 'archive')).totals).toMatchObject({ sessions: 0, storedBytes: 0 });
    expect(verifyArchive(join(dir, 'archive'), TEST_AGENTS)).toMatchObject({ ok: true, sessions: 0 });
    expect(existsSync(dirname(join(dir, 'archive', 'x')))).toBe(false);
  });
});
