import { basename } from 'node:path';
import type { LoadOptions, LoadedSession, Session, SessionFollower } from '@glassbox/core';
import { isCancelled } from '@glassbox/core';
import { FollowedLines } from '@glassbox/file-io';
import { TranscriptParser } from '../parser';
import { listSubagentFiles } from './discover';
import { linkSubagents } from './load';
import { capturedTextReader } from './read-file';

/** One transcript file read so far: the parser's state, fed the complete lines as they are appended. */
class FollowedFile {
  private readonly parser: TranscriptParser;
  private readonly lines: FollowedLines;
  session: Session;

  constructor(
    private readonly path: string,
    options: LoadOptions,
  ) {
    const parser = new TranscriptParser({ path, fallbackId: basename(path).replace(/\.jsonl$/i, '') });
    this.parser = parser;
    this.lines = new FollowedLines(path, (text, line, offset, len) => parser.push(text, line, offset, len), options.progress);
    this.session = this.sessionNow();
  }

  /** Subagent tool calls the parser saw (they link subagent files to the calls that started them). */
  hints(): ReturnType<TranscriptParser['subagentLinks']> {
    return this.parser.subagentLinks();
  }

  /** True when the file changed since the last read; throws Rewritten when it was not only appended to. */
  advance(options: LoadOptions): boolean {
    const found = this.lines.advance(options.progress);
    if (found === 'rewritten') throw new Rewritten();
    if (found === 'unchanged') return false;
    this.session = this.sessionNow();
    return true;
  }

  /** The session as a whole read of the complete lines gives it (the parse goes on). */
  private sessionNow(): Session {
    const session = this.parser.snapshot();
    session.stats.bytes = this.lines.bytes;
    session.capturedTextOf = capturedTextReader(this.path, session);
    return session;
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
  const main = new FollowedFile(path, options);
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
        sub = new FollowedFile(file.path, {});
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
