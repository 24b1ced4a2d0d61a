import { appendFileSync, existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Archive, sha256Hex } from './archive';
import { ForkError } from '../shared/atomic';
import { showSegment, undoFork, verifyFork } from './ops';
import { planFromLines } from './plan-lines';
import { lastResultAction, linesOf, plannedForkOptions, tree, useScratches } from '@glassbox/test-support/store/fork';
import { writeFork } from './writer';
import { forkJob } from './job';
import { defaultAgents } from '@glassbox/agents';
import { agentForLines } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const scratch = useScratches();

function expectForkError(fn: () => unknown, code: ForkError['code']): ForkError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ForkError);
    expect((error as ForkError).code).toBe(code);
    return error as ForkError;
  }
  throw new Error(`expected a ForkError ${code}`);
}

describe('writeFork', () => {
  it('writes a validated sibling, archives the original, and leaves the original untouched', () => {
    const s = scratch('01-superseded-reads');
    const before = readFileSync(s.sourcePath);
    const result = writeFork(plannedForkOptions(s));
    expect(result.status).toBe('written');
    if (result.status !== 'written') return;
    expect(result.forkPath).toBe(join(s.projectDir, `${result.forkId}.jsonl`));
    expect(result.originalSha256.before).toBe(sha256Hex(before));
    expect(result.originalSha256.after).toBe(sha256Hex(before));
    expect(readFileSync(s.sourcePath).equals(before)).toBe(true);
    const planned = planFromLines(s.sourcePath, before.toString('utf8').split('\n').slice(0, -1), { agent: agentForLines(TEST_AGENTS, before.toString('utf8').split('\n').slice(0, -1)), repoRoot: s.repoRoot }).actions;
    expect(result.applied.length).toBe(planned.length);
    expect(result.applied.length).toBeGreaterThan(0);
    expect(result.report.ok).toBe(true);
    // The archive holds the original bytes and every removed payload, hash-checked on read.
    const archive = new Archive(s.archiveDir);
    expect(archive.get(result.originalSha256.before).equals(before)).toBe(true);
    for (const a of result.manifest.actions) for (const r of a.removed) expect(archive.has(r.sha256)).toBe(true);
    // No temporary file left, and the fork has every line of the original.
    expect(tree(s.projectDir).filter((f) => f.includes('.tmp'))).toEqual([]);
    const fork = readFileSync(result.forkPath, 'utf8').split('\n');
    expect(fork.length).toBe(before.toString('utf8').split('\n').length);
    expect(fork.filter((l) => l.includes(s.sessionId))).toEqual([]);
  });

  it('carries subagent and tool-result files over, renaming the session inside subagent transcripts', () => {
    const s = scratch('04-subagent-compact-multiturn');
    const result = writeFork(plannedForkOptions(s, { prepare: (src) => ({ actions: [lastResultAction(linesOf(src.path))] }) }));
    expect(result.status).toBe('written');
    if (result.status !== 'written') return;
    expect(result.sidecarDir).toBe(join(s.projectDir, result.forkId));
    const subs = tree(join(s.projectDir, s.sessionId, 'subagents'));
    expect(tree(join(result.sidecarDir!, 'subagents'))).toEqual(subs);
    const agent = subs.find((f) => f.endsWith('.jsonl'))!;
    const orig = readFileSync(join(s.projectDir, s.sessionId, 'subagents', agent), 'utf8');
    const copy = readFileSync(join(result.sidecarDir!, 'subagents', agent), 'utf8');
    expect(copy).toBe(orig.split(s.sessionId).join(result.forkId));
    expect(result.manifest.sidecars.find((x) => x.rel === `subagents/${agent}`)?.sessionIdRewritten).toBe(true);
    // The subagent's meta file (its type and description) is copied byte for byte.
    const metas = subs.filter((f) => f.endsWith('.meta.json'));
    expect(metas).toEqual([agent.replace(/\.jsonl$/, '.meta.json')]);
    for (const meta of metas) expect(readFileSync(join(result.sidecarDir!, 'subagents', meta), 'utf8')).toBe(readFileSync(join(s.projectDir, s.sessionId, 'subagents', meta), 'utf8'));
  });

  it('verify, show and undo work from the fork id alone', () => {
    const s = scratch('03-large-outputs');
    const result = writeFork(plannedForkOptions(s));
    if (result.status !== 'written') throw new Error('not written');
    const v = verifyFork(result.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir });
    expect(v.report.ok).toBe(true);
    expect(v.unchanged).toBe(true);
    expect(v.originalOnDisk).toBe('identical');
    // Claude Code appends when the fork is resumed: verify checks the written part.
    appendFileSync(result.forkPath, '{"type":"last-prompt","lastPrompt":"x","leafUuid":"nope","sessionId":"' + result.forkId + '"}\n');
    const v2 = verifyFork(result.forkPath, { agents: TEST_AGENTS, archiveDir: s.archiveDir });
    expect(v2.appendedLines).toBe(1);
    expect(v2.unchanged).toBe(true);
    expect(v2.report.ok).toBe(true);

    const action = result.manifest.actions[0]!;
    const shown = showSegment(result.forkId, action.segmentId, { agents: TEST_AGENTS, archiveDir: s.archiveDir });
    const origRecord = JSON.parse(readFileSync(s.sourcePath, 'utf8').split('\n')[action.line - 1] as string);
    expect(shown[0]!.text).toBe(origRecord.message.content[action.blockIndex].content);
    // By the hash prefix the tombstone prints.
    const prefix = /sha256 ([0-9a-f]{12})\]$/.exec(action.tombstone)![1]!;
    expect(showSegment(result.forkId, prefix, { agents: TEST_AGENTS, archiveDir: s.archiveDir })[0]!.text).toBe(shown[0]!.text);
    expectForkError(() => showSegment(result.forkId, 'no-such-segment', { agents: TEST_AGENTS, archiveDir: s.archiveDir }), 'segment_not_found');

    const undo = undoFork(result.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir });
    expect(undo.path).not.toBe(s.sourcePath);
    const restored = readFileSync(undo.path, 'utf8');
    expect(restored).toBe(readFileSync(s.sourcePath, 'utf8').split(`"sessionId":"${s.sessionId}"`).join(`"sessionId":"${undo.sessionId}"`));
    expect(tree(join(s.projectDir, undo.sessionId))).toEqual(tree(join(s.projectDir, s.sessionId)));
  });

  it('starts again once when the source grows while the fork is prepared', () => {
    const s = scratch('01-superseded-reads');
    const extra = readFileSync(s.sourcePath, 'utf8').split('\n').filter((l) => l.includes('"type":"last-prompt"')).pop()!;
    const result = writeFork(plannedForkOptions(s, { beforeCommit: (attempt) => (attempt === 1 ? appendFileSync(s.sourcePath, extra + '\n') : undefined) }));
    expect(result.status).toBe('written');
    if (result.status !== 'written') return;
    expect(result.attempts).toBe(2);
    expect(result.manifest.original.sha256).toBe(sha256Hex(readFileSync(s.sourcePath)));
    expect(result.manifest.fork.lines).toBe(readFileSync(s.sourcePath, 'utf8').split('\n').length - 1);
  });

  it('refuses with a clear message when the source keeps growing, and writes nothing', () => {
    const s = scratch('01-superseded-reads');
    const extra = readFileSync(s.sourcePath, 'utf8').split('\n').filter((l) => l.includes('"type":"last-prompt"')).pop()!;
    const before = tree(s.projectDir);
    const e = expectForkError(() => writeFork(plannedForkOptions(s, { beforeCommit: () => appendFileSync(s.sourcePath, extra + '\n') })), 'source_changed');
    expect(e.message).toMatch(/changed while the fork was being prepared.*Nothing was written/);
    expect(tree(s.projectDir)).toEqual(before);
    expect(tree(join(s.archiveDir, 'forks'))).toEqual([]);
  });

  it('never writes over an existing session file (name collision)', () => {
    const s = scratch('01-superseded-reads');
    const id = '0badc0de-0000-4000-8000-000000000000';
    writeFileSync(join(s.projectDir, `${id}.jsonl`), 'someone else\n');
    const before = tree(s.projectDir);
    const e = expectForkError(() => writeFork(plannedForkOptions(s, { newSessionId: id })), 'exists');
    expect(e.message).toContain(`${id}.jsonl already exists`);
    expect(readFileSync(join(s.projectDir, `${id}.jsonl`), 'utf8')).toBe('someone else\n');
    expect(tree(s.projectDir)).toEqual(before);
    expect(tree(join(s.archiveDir, 'forks'))).toEqual([]);
  });

  it('never writes into an existing session folder either', () => {
    const s = scratch('04-subagent-compact-multiturn');
    const id = '0badc0de-0000-4000-8000-000000000001';
    mkdirSync(join(s.projectDir, id));
    writeFileSync(join(s.projectDir, id, 'mine.txt'), 'keep');
    const before = tree(s.projectDir);
    expectForkError(
      () => writeFork(plannedForkOptions(s, { newSessionId: id, prepare: (src) => ({ actions: [lastResultAction(linesOf(src.path))] }) })),
      'exists',
    );
    expect(tree(s.projectDir)).toEqual(before);
  });

  it('refuses a fork the validator rejects, and writes nothing', () => {
    const s = scratch('05-autocompact');
    // A record written twice: tombstoning the earlier copy changes a line the client never loads,
    // so the live chain costs exactly as much as before — the validator refuses it.
    const lines = readFileSync(s.sourcePath, 'utf8').split('\n');
    const seen = new Map<string, number>();
    let target: { uuid: string; line: number; blockIndex: number } | undefined;
    lines.forEach((l, i) => {
      if (!l) return;
      const r = JSON.parse(l);
      if (!r.uuid) return;
      if (seen.has(r.uuid) && !target) {
        const first = seen.get(r.uuid)!;
        const rec = JSON.parse(lines[first] as string);
        const j = Array.isArray(rec.message?.content) ? rec.message.content.findIndex((b: { type: string; is_error?: boolean }) => b.type === 'tool_result' && !b.is_error) : -1;
        if (j >= 0) target = { uuid: r.uuid, line: first + 1, blockIndex: j };
      }
      seen.set(r.uuid, i);
    });
    expect(target).toBeDefined();
    const before = tree(s.projectDir);
    const result = writeFork(plannedForkOptions(s, { prepare: () => ({ actions: [{ ...target!, target: 'tool-result', tombstone: '[glassbox: removed]' }] }) }));
    expect(result.status).toBe('refused');
    if (result.status !== 'refused') return;
    expect(result.report.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['tokens']);
    expect(tree(s.projectDir)).toEqual(before);
    expect(existsSync(join(s.archiveDir, 'forks'))).toBe(false);
  });

  it('says so when an archive object is corrupted on disk, and writes nothing', () => {
    const s = scratch('03-large-outputs');
    const result = writeFork(plannedForkOptions(s));
    if (result.status !== 'written') throw new Error('not written');
    const archive = new Archive(s.archiveDir);
    const objectPath = join(s.archiveDir, 'objects', result.originalSha256.before.slice(0, 2), result.originalSha256.before);
    writeFileSync(objectPath, readFileSync(objectPath, 'utf8').replace('"type":"user"', '"type":"usr"'));
    const e = expectForkError(() => verifyFork(result.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir }), 'archive_corrupt');
    expect(e.message).toMatch(/is corrupted: its bytes hash to/);
    const before = tree(s.projectDir);
    expectForkError(() => undoFork(result.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir }), 'archive_corrupt');
    expect(tree(s.projectDir)).toEqual(before);
    const payload = result.manifest.actions[0]!.removed[0]!.sha256;
    writeFileSync(join(s.archiveDir, 'objects', payload.slice(0, 2), payload), 'tampered');
    expectForkError(() => showSegment(result.forkId, result.manifest.actions[0]!.segmentId, { agents: TEST_AGENTS, archiveDir: s.archiveDir }), 'archive_corrupt');
    // Storing the same bytes again repairs the object.
    expect(archive.put(readFileSync(s.sourcePath)).repaired).toBe(true);
    expect(verifyFork(result.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir }).report.ok).toBe(true);
  });

  it('stops when cancelled while it writes, and leaves nothing behind: no fork, no temporary file, no archive object', () => {
    const s = scratch('03-large-outputs');
    const before = tree(s.root);
    const stages: string[] = [];
    const job = forkJob(
      () => stages.includes('writing the fork'),
      (stage) => void (stages.includes(stage) || stages.push(stage)),
    );
    const e = expectForkError(() => writeFork(plannedForkOptions(s, { job })), 'cancelled');
    expect(e.message).toMatch(/nothing was written/);
    expect(stages).toContain('writing the fork');
    // Every file as it was (the archive's folders may exist, empty).
    const files = (t: string[]) => t.filter((f) => !f.endsWith('/'));
    expect(files(tree(s.root))).toEqual(files(before));
    // Once not cancelled, the same fork is written.
    expect(writeFork(plannedForkOptions(s)).status).toBe('written');
  });

  it('refuses a file that is not valid UTF-8 (a fork could not keep its bytes), and writes nothing', () => {
    const s = scratch('01-superseded-reads');
    const bytes = readFileSync(s.sourcePath);
    // One byte of the last line's text made undecodable, as a damaged disk or a bad copy would.
    const at = bytes.lastIndexOf(Buffer.from('"type":"'));
    writeFileSync(s.sourcePath, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 1)]));
    const before = tree(s.root);
    const e = expectForkError(() => writeFork(plannedForkOptions(s)), 'source_not_utf8');
    expect(e.message).toMatch(/not valid UTF-8 \(line \d+\)/);
    expect(tree(s.root).filter((f) => !f.endsWith('/'))).toEqual(before.filter((f) => !f.endsWith('/')));
  });

  it('carries checkpoint backups (file-history) so /rewind works in the fork and in an undo', () => {
    const s = scratch('01-superseded-reads');
    const history = tree(join(s.root, 'file-history', s.sessionId));
    expect(history.length).toBeGreaterThan(0);
    const result = writeFork(plannedForkOptions(s));
    if (result.status !== 'written') throw new Error('not written');
    expect(tree(join(s.root, 'file-history', result.forkId))).toEqual(history);
    for (const f of history) {
      expect(readFileSync(join(s.root, 'file-history', result.forkId, f)).equals(readFileSync(join(s.root, 'file-history', s.sessionId, f)))).toBe(true);
    }
    const undo = undoFork(result.forkId, { agents: TEST_AGENTS, archiveDir: s.archiveDir });
    expect(tree(join(s.root, 'file-history', undo.sessionId))).toEqual(history);
  });

  it('never writes into an existing checkpoint folder, and removes what it created', () => {
    const s = scratch('01-superseded-reads');
    const id = '0badc0de-0000-4000-8000-000000000002';
    mkdirSync(join(s.root, 'file-history', id));
    const before = tree(s.root);
    const e = expectForkError(() => writeFork(plannedForkOptions(s, { newSessionId: id })), 'exists');
    expect(e.message).toContain(join('file-history', id));
    expect(tree(s.root).filter((f) => !f.startsWith('archive/'))).toEqual(before.filter((f) => !f.startsWith('archive/')));
    expect(tree(join(s.archiveDir, 'forks'))).toEqual([]);
  });
});
