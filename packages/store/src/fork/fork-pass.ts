import type { AgentFormat, ForkAction, ForkBuilder, ForkOutcome, ForkPrepared, Session, TombstoneFill, ValidationReport } from '@glassbox/core';
import type { IncomingObject } from './archive';
import type { ForkJob } from './job';
import { ExactLineReader, checksumFile, readLines, sameStamp, scanExact, type LinePass, type SourceStamp } from './lines';
import { LineBytes, type LineOutput } from './output';
import { withElisionCheck } from './elision';

/** The source's bytes are not the ones a previous pass read (a live session appending, a rewrite). */
export class SourceMoved extends Error {
  constructor(readonly path: string) {
    super(`${path} changed between two passes`);
  }
}

/** A fork builder after its index pass over a file, and the file as that pass saw it. */
export interface IndexedFork {
  /** The session id the builder gives the fork. */
  newSessionId: string;
  builder: ForkBuilder;
  prepared: ForkPrepared;
  pass: LinePass;
}

/** The index pass of a fork builder over a file: what applies and what is refused, and the file it saw. */
export function indexPass(
  format: AgentFormat,
  path: string,
  actions: readonly ForkAction[],
  newSessionId: string,
  options: { job?: ForkJob; expect?: SourceStamp | null; fill?: TombstoneFill; sha256?: boolean } = {},
): IndexedFork {
  const builder = format.createForkBuilder(actions, newSessionId);
  const onBytes = builder.indexBytes ? (bytes: Buffer, line: number) => builder.indexBytes?.(bytes, line) : undefined;
  const pass = scanExact(path, (text, line) => builder.index(text, line), {
    ...(options.job ? { job: options.job } : {}),
    ...(onBytes ? { onBytes } : {}),
    stage: 'finding what to remove',
    sha256: options.sha256 === true,
  });
  if (options.expect !== undefined && !sameStamp(options.expect, pass.stamp)) throw new SourceMoved(path);
  return { newSessionId, builder, prepared: builder.prepare(options.fill), pass };
}

/**
 * The index pass from the plan's parse of the same bytes, when the builder can say which lines it
 * needs (ForkBuilder.indexLines): only those lines are read (each checked to be a whole line where the
 * parse put it). The passes after compare against the CRC-32 of the bytes the parse read (`parsed`),
 * or of one plain read of the file when the parse did not report them. Otherwise, or when a placed
 * line is not where the parse put it, the full index pass.
 */
export function indexFromPlan(
  format: AgentFormat,
  path: string,
  session: Session,
  actions: readonly ForkAction[],
  newSessionId: string,
  options: {
    job?: ForkJob;
    expect: SourceStamp;
    fill?: TombstoneFill;
    /** The CRC-32 of the bytes the session was parsed from, when the parse gave them (else the file is read for it). */
    parsed?: { crc32: number; bytes: number; lastByte: number } | null;
  },
): IndexedFork {
  const { parsed, ...rest } = options;
  const builder = format.createForkBuilder(actions, newSessionId);
  const refs = builder.indexLines?.(session) ?? null;
  const lines = refs ? readLines(path, refs, options.expect) : null;
  if (!refs || !lines) return indexPass(format, path, actions, newSessionId, rest);
  let sum = parsed;
  if (!sum) {
    const read = checksumFile(path, { ...(options.job ? { job: options.job } : {}), stage: 'finding what to remove' });
    if (!sameStamp(options.expect, read.stamp)) throw new SourceMoved(path);
    sum = read;
  }
  refs.forEach((r, i) => builder.index(lines[i] as string, r.line));
  const pass: LinePass = { lines: session.stats.lines, bytes: sum.bytes, endsWithNewline: sum.lastByte === 10, crc32: sum.crc32, sha256: null, stamp: options.expect };
  return { newSessionId, builder, prepared: builder.prepare(options.fill), pass };
}

export interface ForkPassResult {
  outcome: ForkOutcome;
  report: ValidationReport;
  /** The original as this pass read it (its sha-256 is what was archived, when archived). */
  source: LinePass;
}

/**
 * The fork's one pass over its original, after the index pass: each line is transformed, validated
 * against the line it came from, written to `output` (when writing) and its bytes copied to the
 * archive (when given), so the file is read once for all of it and never held. The pass must see the
 * bytes the index pass saw (same stamp and hash), or SourceMoved is thrown.
 */
export function forkPass(
  format: AgentFormat,
  path: string,
  indexed: IndexedFork,
  options: { output?: LineOutput; archive?: IncomingObject; job?: ForkJob; validateActions?: boolean; original?: Session } = {},
): ForkPassResult {
  const { builder, prepared } = indexed;
  const validator = format.createForkValidator({
    ...(options.validateActions === false ? {} : { actions: prepared.applied.map((a) => a.action), touchedLines: prepared.touchedLines }),
    // The plan's parse of these same bytes (the stamps below must agree): the original is not parsed again for its chain.
    ...(options.original ? { original: options.original } : {}),
  });
  const archive = options.archive;
  // The original's sha-256 names its archive object; otherwise a CRC-32 tells the bytes are the index pass's.
  const reader = new ExactLineReader(path, archive ? (chunk) => archive.write(chunk) : undefined, options.job, options.output ? 'writing the fork' : 'checking the fork', archive !== undefined);
  let source: LinePass;
  // Without an output (a check of the fork) the fork's lines are still assembled, for the validator.
  const output = options.output ?? new LineBytes(() => undefined);
  try {
    if (!sameStamp(reader.stamp, indexed.pass.stamp)) throw new SourceMoved(path);
    let line = 0;
    for (let bytes = reader.nextBytes(); bytes !== null; bytes = reader.nextBytes()) {
      const text = reader.decode(bytes);
      line++;
      // A builder that can give a renamed line as a splice of its bytes spares encoding it again, a
      // validator that reads bytes spares decoding it: most lines change only their session id.
      const fork = builder.transformBytes ? builder.transformBytes(bytes, text, line) : builder.transform(text, line);
      const written = output.append(bytes, fork);
      if (validator.pairBytes) validator.pairBytes({ text, bytes }, written, line);
      else validator.pair(text, typeof fork === 'string' ? fork : written.toString('utf8'), line);
    }
    source = reader.finish();
    if (source.endsWithNewline && output.lines > 0) output.newline();
  } catch (error) {
    reader.close();
    throw error;
  }
  if (source.crc32 !== indexed.pass.crc32 || source.bytes !== indexed.pass.bytes || !sameStamp(source.stamp, indexed.pass.stamp)) throw new SourceMoved(path);
  const outcome = builder.finish();
  // Elisions carry one check more than any agent's validator knows: the ends and the middle's hash.
  return { outcome, report: withElisionCheck(validator.finish(), outcome.applied), source };
}
