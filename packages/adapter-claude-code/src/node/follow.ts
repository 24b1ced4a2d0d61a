import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import type { LoadOptions, LoadedSession, Session, SessionFollower } from '@glassbox/core';
import { isCancelled } from '@glassbox/core';
import { scanLines } from '@glassbox/file-io';
import { TranscriptParser } from '../parser';
import { listSubagentFiles } from './discover';
import { linkSubagents } from './load';
import { capturedTextReader } from './read-file';

/**
 * How many bytes before the end of what was read are compared on each update: a rewrite of the file
 * (a fork written over it, an editor's save) that happens to leave it longer is caught here, as the
 * bytes of the last line read are no longer where they were.
 */
const TAIL_BYTES = 512;

/** One transcript file read so far: the parser's state and where its next line starts. */
class FollowedFile {
  private readonly parser: TranscriptParser;
  private readonly dev: number;
  private readonly ino: number;
  /** The offset just past the last complete line pushed, and that line's number. */
  private offset = 0;
  private line = 0;
  private tail: Buffer = Buffer.alloc(0);
  private size = -1;
  private mtimeMs = -1;
  session: Session;

  constructor(
    private readonly path: string,
    st: Stats,
    options: LoadOptions,
  ) {
    this.parser = new TranscriptParser({ path, fallbackId: basename(path).replace(/\.jsonl$/i, '') });
    this.dev = st.dev;
    this.ino = st.ino;
    this.read(options);
    this.session = this.sessionNow();
  }

  /** Subagent tool calls the parser saw (they link subagent files to the calls that started them). */
  hints(): ReturnType<TranscriptParser['subagentLinks']> {
    return this.parser.subagentLinks();
  }

  /** True when the file changed since the last read; throws Rewritten when it was not only appended to. */
  advance(options: LoadOptions): boolean {
    const st = statSync(this.path);
    if (st.size === this.size && st.mtimeMs === this.mtimeMs) return false;
    if (st.dev !== this.dev || st.ino !== this.ino || st.size < this.offset || !this.tailIntact()) throw new Rewritten();
    const before = this.offset;
    this.read(options);
    if (this.offset === before) return false;
    this.session = this.sessionNow();
    return true;
  }

  /**
   * Pushes the complete lines from the offset on. Each line is pushed once the next one is seen (or
   * the file ends with a newline), so a last line still being written waits for the next update.
   */
  private read(options: LoadOptions): void {
    let held: { text: string; line: number; offset: number; len: number } | null = null;
    const start = this.offset;
    const scan = scanLines(
      this.path,
      (text, line, offset, len) => {
        if (held) this.push(held);
        held = { text, line, offset, len };
      },
      this.offset,
      this.line,
      Infinity,
      options.progress ? (done, total) => options.progress?.(done - start, total - start) : undefined,
    );
    const last = held as { text: string; line: number; offset: number; len: number } | null;
    if (last && scan.endsWithNewline) this.push(last);
    const st = statSync(this.path);
    // The size read up to (scanLines reads to the size it saw when it opened the file).
    this.size = scan.bytes === st.size ? st.size : -1;
    this.mtimeMs = scan.bytes === st.size ? st.mtimeMs : -1;
    this.tail = this.bytesBefore(this.offset);
  }

  private push(l: { text: string; line: number; offset: number; len: number }): void {
    this.parser.push(l.text, l.line, l.offset, l.len);
    this.offset = l.offset + l.len + 1;
    this.line = l.line;
  }

  /** The session as a whole read of the complete lines gives it (the parse goes on). */
  private sessionNow(): Session {
    const session = this.parser.snapshot();
    session.stats.bytes = this.offset;
    session.capturedTextOf = capturedTextReader(this.path, session);
    return session;
  }

  private tailIntact(): boolean {
    return this.bytesBefore(this.offset).equals(this.tail);
  }

  private bytesBefore(end: number): Buffer {
    const n = Math.min(TAIL_BYTES, end);
    const buf = Buffer.alloc(n);
    if (n === 0) return buf;
    const fd = openSync(this.path, 'r');
    try {
      const got = readSync(fd, buf, 0, n, end - n);
      return buf.subarray(0, got);
    } finally {
      closeSync(fd);
    }
  }
}

/** The file is no longer what was read (see SessionFollower.update). */
class Rewritten extends Error {}

/**
 * Follows a Claude Code session and its subagent files as they grow: each file keeps its parser, so
 * an update reads only the lines appended to it, and the session is the parser's snapshot (what it
 * costs is the window since the last compaction, not the history). Subagent files are listed again on
 * each update (a new one may have started) and each is followed the same way.
 */
export function followSession(path: string, options: LoadOptions = {}): SessionFollower {
  const main = new FollowedFile(path, statSync(path), options);
  const subs = new Map<string, FollowedFile>();
  const withSubagents = options.subagents !== false;

  const assemble = (): LoadedSession => {
    // A fresh session each time (the parser's snapshot), so the subagents are linked to it anew.
    const session: Session = { ...main.session, subagents: [], problems: [...main.session.problems] };
    if (!withSubagents || session.agentId !== undefined) return { session, subagents: [] };
    const files = listSubagentFiles(path, session.id).filter((f) => f.path !== path);
    const seen = new Set<string>();
    const read = files.map((file) => {
      seen.add(file.path);
      let sub = subs.get(file.path);
      try {
        if (sub) sub.advance({});
      } catch (error) {
        if (!(error instanceof Rewritten)) throw error;
        sub = undefined;
      }
      if (!sub) {
        sub = new FollowedFile(file.path, statSync(file.path), {});
        subs.set(file.path, sub);
      }
      return { file, sub: sub.session };
    });
    for (const p of [...subs.keys()]) if (!seen.has(p)) subs.delete(p);
    return linkSubagents(session, main.hints(), read);
  };

  let loaded = assemble();
  return {
    get loaded() {
      return loaded;
    },
    update(o: LoadOptions = {}) {
      try {
        main.advance(o);
        loaded = assemble();
        return loaded;
      } catch (error) {
        if (isCancelled(error)) throw error;
        return null;
      }
    },
  };
}
