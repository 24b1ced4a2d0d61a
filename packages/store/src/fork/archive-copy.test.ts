import { appendFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Archive, sha256Hex } from './archive';
import { ArchiveCopy } from './archive-copy';
import { ForkError } from '../shared/atomic';
import { forkJob } from './job';
import { sameStamp, stampOfPath } from './lines';
import { planFromFile } from './plan-lines';
import { plannedForkOptions, tree, useScratches } from '@glassbox/test-support/store/fork';
import { writeFork } from './writer';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const scratch = useScratches();

/** Temporary objects left anywhere under the archive's objects folder (none may be, after any end). */
function incomingLeft(archiveDir: string): string[] {
  return tree(join(archiveDir, 'objects')).filter((f) => f.includes('.tmp'));
}

describe('the original copied into the archive on a thread', () => {
  it('copies the bytes exactly and names them: sha-256, CRC-32, length and stamp of the file as it was', () => {
    const s = scratch('03-large-outputs');
    const bytes = readFileSync(s.sourcePath);
    const archive = new Archive(s.archiveDir);
    const copy = ArchiveCopy.start(archive, s.sourcePath, 'always');
    expect(copy).not.toBeNull();
    if (!copy) return;
    expect(copy.claim()).toBe(true);
    const got = copy.wait(forkJob(() => false));
    if (!got) throw new Error('the copy found the original moved');
    expect(got.sha256).toBe(sha256Hex(bytes));
    expect(got.crc32).toBe(crc32(bytes));
    expect(got.bytes).toBe(bytes.length);
    expect(got.stamp.size).toBe(bytes.length);
    expect(readFileSync(copy.incoming.path).equals(bytes)).toBe(true);
    copy.incoming.publish(got.sha256);
    expect(archive.get(got.sha256).equals(bytes)).toBe(true);
    // Discarding after the object is published removes nothing.
    copy.discard();
    expect(archive.has(got.sha256)).toBe(true);
    expect(incomingLeft(s.archiveDir)).toEqual([]);
  });

  it('says which file it copied: a change after the thread stamped the file shows in the stamp the fork compares', () => {
    const s = scratch('03-large-outputs');
    const copy = ArchiveCopy.start(new Archive(s.archiveDir), s.sourcePath, 'always');
    if (!copy) throw new Error('no copy');
    appendFileSync(s.sourcePath, '\n');
    const got = copy.wait(forkJob(() => false));
    if (!got) throw new Error('the copy found the original moved');
    const now = stampOfPath(s.sourcePath);
    expect(now && sameStamp(got.stamp, now)).toBe(false);
    expect(got.bytes).toBe(readFileSync(s.sourcePath).length - 1);
    copy.discard();
    expect(incomingLeft(s.archiveDir)).toEqual([]);
  });

  it('writes nothing into the archive until the fork is to be written: a plan with nothing to remove costs the disk nothing', () => {
    const s = scratch('03-large-outputs');
    const copy = ArchiveCopy.start(new Archive(s.archiveDir), s.sourcePath, 'always');
    if (!copy) throw new Error('no copy');
    // Long enough for the thread to have hashed a 700 KB file many times over.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    expect(statSync(copy.incoming.path).size).toBe(0);
    copy.discard();
    expect(incomingLeft(s.archiveDir)).toEqual([]);
  });

  it('leaves a small file to the fork pass by default, and the pass copies into the same object when it claims first', () => {
    const s = scratch('01-superseded-reads');
    const archive = new Archive(s.archiveDir);
    expect(ArchiveCopy.start(archive, s.sourcePath)).toBeNull();
    expect(ArchiveCopy.start(archive, s.sourcePath, 'never')).toBeNull();
    const copy = ArchiveCopy.start(archive, s.sourcePath, 'always');
    if (!copy) throw new Error('no copy');
    // The thread claimed it: the pass may not.
    expect(copy.claim()).toBe(true);
    copy.discard();
    expect(incomingLeft(s.archiveDir)).toEqual([]);
  });

  it('a fork written with the thread archives the original it was made from and leaves no temporary object', () => {
    const s = scratch('01-superseded-reads');
    const before = readFileSync(s.sourcePath);
    const result = writeFork(plannedForkOptions(s, { archiveThread: 'always' }));
    if (result.status !== 'written') throw new Error(result.status);
    expect(result.report.ok).toBe(true);
    expect(result.originalSha256.before).toBe(sha256Hex(before));
    expect(result.manifest.original.sha256).toBe(sha256Hex(before));
    expect(new Archive(s.archiveDir).get(result.manifest.original.sha256).equals(before)).toBe(true);
    // The fork was hashed on a thread too: the manifest names the bytes on disk.
    const fork = readFileSync(result.forkPath);
    expect(result.manifest.fork).toMatchObject({ sha256: sha256Hex(fork), bytes: fork.length });
    expect(incomingLeft(s.archiveDir)).toEqual([]);
  });

  it('a file that grows while the plan reads it: the attempt starts again with a new copy, and the archive holds the bytes the fork was made from', () => {
    const s = scratch('01-superseded-reads');
    const extra = readFileSync(s.sourcePath, 'utf8').split('\n').filter((l) => l.includes('"type":"last-prompt"')).pop() as string;
    let calls = 0;
    const result = writeFork({
      ...plannedForkOptions(s, { archiveThread: 'always' }),
      // The plan (and so the fork) reads the grown file; the thread copied the file it stamped before.
      prepare: (src) => {
        if (++calls === 1) appendFileSync(s.sourcePath, extra + '\n');
        return { actions: planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), repoRoot: s.repoRoot }).actions, cwd: '/somewhere' };
      },
    });
    if (result.status !== 'written') throw new Error(result.status);
    expect(result.attempts).toBe(2);
    const now = readFileSync(s.sourcePath);
    expect(result.manifest.original.sha256).toBe(sha256Hex(now));
    expect(new Archive(s.archiveDir).get(result.manifest.original.sha256).equals(now)).toBe(true);
    expect(incomingLeft(s.archiveDir)).toEqual([]);
  });

  it('cancelled while the fork is written: the thread stops and nothing is left, neither fork nor archive object', () => {
    const s = scratch('03-large-outputs');
    const files = (t: string[]): string[] => t.filter((f) => !f.endsWith('/'));
    const before = files(tree(s.root));
    let writing = false;
    const job = forkJob(
      () => writing,
      (stage) => void (writing ||= stage === 'writing the fork'),
    );
    expect(() => writeFork(plannedForkOptions(s, { job, archiveThread: 'always' }))).toThrow(ForkError);
    expect(writing).toBe(true);
    expect(files(tree(s.root))).toEqual(before);
    expect(readdirSync(s.projectDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
