/**
 * The archive's deduplication figure (`npm run bench:archive`): every real Claude Code session of the
 * corpus kept ten times while it grows (its first 10 %, 20 %, … 100 % of lines, as a live session
 * appends), with its subagent, tool-result and checkpoint files. Prints what ten plain copies would
 * take, what the archive takes (chunks and manifests, and on disk), and the same for other chunk sizes
 * (simulated: unique chunks, each compressed as the store does), against keeping each version whole.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { defaultAgents } from '@glassbox/agents';
import { humanBytes } from '@glassbox/core';
import { archiveReport, chunkLengths, keepSession, verifyArchive, type ChunkSizes } from '@glassbox/store/keep';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const STEPS = 10;
const agents = defaultAgents();

interface Source {
  name: string;
  transcript: Buffer;
  sessionId: string;
  /** The project folder's other contents (subagents, tool results) and checkpoint backups, if any. */
  project: string | null;
  fileHistory: string | null;
}

function sources(): Source[] {
  const out: Source[] = [];
  const gen = join(REPO, 'fixtures/corpus/generated');
  for (const name of readdirSync(gen).sort()) {
    const dir = join(gen, name);
    if (!existsSync(join(dir, 'manifest.json'))) continue;
    const id = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { session_ids: string[] }).session_ids[0] as string;
    out.push({ name, transcript: readFileSync(join(dir, 'claude-project', `${id}.jsonl`)), sessionId: id, project: join(dir, 'claude-project'), fileHistory: existsSync(join(dir, 'file-history')) ? join(dir, 'file-history') : null });
  }
  for (const pub of ['d-kimuson__claude-code-viewer', 'DRMacIver__claude-reliability']) {
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.jsonl') ? [join(d, e.name)] : []));
    for (const f of walk(join(REPO, 'fixtures/corpus/public', pub))) {
      const id = createHash('sha256').update(f).digest('hex').slice(0, 8) + '-' + f.split('/').pop()?.replace(/\.jsonl$/, '').slice(0, 20);
      out.push({ name: `${pub}/${f.split('/').pop()}`, transcript: readFileSync(f), sessionId: id, project: null, fileHistory: null });
    }
  }
  return out;
}

/** The first share of a transcript's lines (whole lines, as an appending client leaves them). */
function prefix(bytes: Buffer, share: number): Buffer {
  if (share >= 1) return bytes;
  const lines = bytes.toString('utf8').split('\n');
  const n = Math.max(1, Math.round((lines.length - 1) * share));
  return Buffer.from(lines.slice(0, n).join('\n') + '\n', 'utf8');
}

function compressed(b: Buffer): number {
  return 5 + Math.min(b.length, brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } }).length);
}

const work = mkdtempSync(join(tmpdir(), 'glassbox-bench-archive-'));
const config = join(work, 'config');
const archiveDir = join(work, 'archive');
const all = sources();
let plainBytes = 0;
let versionsKept = 0;
const versions: Buffer[][] = all.map(() => []);
const t0 = performance.now();
for (let step = 1; step <= STEPS; step++) {
  all.forEach((s, i) => {
    const projectDir = join(config, 'projects', `-bench-${i}`);
    const path = join(projectDir, `${s.sessionId}.jsonl`);
    if (step === 1) {
      mkdirSync(projectDir, { recursive: true });
      if (s.project && existsSync(join(s.project, s.sessionId))) cpSync(join(s.project, s.sessionId), join(projectDir, s.sessionId), { recursive: true, force: true, errorOnExist: false });
      if (s.fileHistory && existsSync(join(s.fileHistory, s.sessionId))) cpSync(join(s.fileHistory, s.sessionId), join(config, 'file-history', s.sessionId), { recursive: true });
    }
    const bytes = prefix(s.transcript, step / STEPS);
    versions[i]?.push(bytes);
    writeFileSync(path, bytes);
    const r = keepSession(path, { archiveDir, agents });
    plainBytes += r.bytes;
    if (r.status === 'kept') versionsKept++;
  });
}
const keepMs = performance.now() - t0;
const report = archiveReport(archiveDir);
const du = Number(execFileSync('du', ['-sb', archiveDir], { encoding: 'utf8' }).split('\t')[0]);
const duBlocks = execFileSync('du', ['-sh', archiveDir], { encoding: 'utf8' }).split('\t')[0];
const verify = verifyArchive(archiveDir, TEST_AGENTS);
const lastBytes = all.reduce((n, s) => n + s.transcript.length, 0);

console.log(`corpus: ${all.length} real Claude Code sessions, ${humanBytes(lastBytes)} of transcripts at full length, kept ${STEPS} times while growing (${versionsKept} versions)`);
console.log(`  ten plain copies (every file of every keep):   ${humanBytes(plainBytes)}`);
console.log(`  the archive (chunks + manifests):              ${humanBytes(report.totals.storedBytes)}  = ${(plainBytes / report.totals.storedBytes).toFixed(1)}× smaller  (${report.totals.chunks} chunks)`);
console.log(`  on disk (du -sb / du -sh):                     ${humanBytes(du)} / ${duBlocks}`);
console.log(`  verify: ${verify.ok ? 'ok' : 'FAILED'} (${verify.chunks} chunks, ${verify.files} files)   keeping took ${(keepMs / 1000).toFixed(1)} s`);

// Other designs, simulated on the transcripts alone: whole versions compressed, and other chunk sizes.
const wholeCompressed = versions.flat().reduce((n, b) => n + compressed(b), 0);
const transcriptsPlain = versions.flat().reduce((n, b) => n + b.length, 0);
console.log(`\ntranscripts only: ${humanBytes(transcriptsPlain)} in ${STEPS} plain copies`);
console.log(`  each version compressed whole (no dedup):      ${humanBytes(wholeCompressed)}`);
const variants: ChunkSizes[] = [
  { min: 2 * 1024, avg: 8 * 1024, max: 32 * 1024 },
  { min: 4 * 1024, avg: 16 * 1024, max: 64 * 1024 },
  { min: 8 * 1024, avg: 32 * 1024, max: 128 * 1024 },
  { min: 16 * 1024, avg: 64 * 1024, max: 256 * 1024 },
];
for (const sizes of variants) {
  const seen = new Map<string, number>();
  let refs = 0;
  for (const v of versions.flat()) {
    let at = 0;
    for (const len of chunkLengths(v, 0, sizes)) {
      const piece = v.subarray(at, at + len);
      at += len;
      refs++;
      const sha = createHash('sha256').update(piece).digest('hex');
      if (!seen.has(sha)) seen.set(sha, compressed(piece));
    }
  }
  const stored = [...seen.values()].reduce((a, b) => a + b, 0);
  // A manifest line per chunk reference (~75 bytes of JSON) is part of the cost of small chunks.
  const manifests = refs * 75;
  console.log(`  chunks avg ${String(sizes.avg / 1024).padStart(2)} KiB: ${String(seen.size).padStart(5)} chunks ${humanBytes(stored).padStart(9)} + manifests ≈${humanBytes(manifests).padStart(9)} = ${humanBytes(stored + manifests)}`);
}
rmSync(work, { recursive: true, force: true });
