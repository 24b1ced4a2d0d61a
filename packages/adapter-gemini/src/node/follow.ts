import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { isCancelled, type LoadOptions, type LoadedSession, type SessionFollower } from '@glassbox/core';
import { FollowedLines, headLines } from '@glassbox/file-io';
import { GeminiParser, type GeminiSession } from '../parser';
import { firstLook } from '../recognise';
import { shortIdOfName } from './names';
import { readChatFile } from './read-file';
import { subagentFiles } from './subagent-files';

/** A chat log (0.39+) read so far: its parser, fed the complete records as they are appended. */
class FollowedLog {
  private readonly parser: GeminiParser;
  private readonly lines: FollowedLines;
  session: GeminiSession;

  /** Throws NotALog when the file holds no log (a document, or nothing yet): it is read whole. */
  constructor(path: string, progress?: (done: number, total: number) => void) {
    const parser = new GeminiParser({ path, fallbackId: shortIdOfName(basename(path)) ?? '' });
    this.parser = parser;
    this.lines = new FollowedLines(path, (text, line, offset, length) => parser.push(text, line, offset, length), progress);
    this.session = this.now();
  }

  /** The session now; false when the file is no longer the log that was read (rewritten, or not a log). */
  advance(progress?: (done: number, total: number) => void): boolean {
    const found = this.lines.advance(progress);
    if (found === 'rewritten') return false;
    if (found === 'appended') {
      if (!this.parser.isLog()) return false;
      this.session = this.now();
    }
    return true;
  }

  private now(): GeminiSession {
    if (!this.parser.isLog()) throw new NotALog();
    return this.parser.snapshot();
  }
}

class NotALog extends Error {}

/**
 * Follows a Gemini CLI chat as its client writes it. A JSONL log (0.39+) is appended to record by
 * record: its replay is kept, an update reads only the complete records appended since, and the
 * session is the replay finished on a copy (GeminiParser.snapshot). Its subagents' chats are followed
 * the same way. A chat document (up to 0.38) is one JSON value the client rewrites whole on every
 * turn, so there is no append to follow: any change to it (or to its subagents' documents) gives null
 * and the caller reads it whole again — which is what a whole rewrite costs anyway. A log rewritten,
 * truncated or replaced gives null too.
 */
export function followChat(path: string, options: LoadOptions = {}): SessionFollower {
  if (firstLook(headLines(path)).kind === 'document') return wholeReads(path, options);
  let main: FollowedLog;
  try {
    main = new FollowedLog(path, options.progress);
  } catch (error) {
    if (error instanceof NotALog) return wholeReads(path, options);
    throw error;
  }
  const subs = new Map<string, SessionFollower>();
  const assemble = (): LoadedSession => {
    const session = main.session;
    if (options.subagents === false) return { session, subagents: [] };
    const files = subagentFiles(path, session);
    const subagents = files.map((file) => {
      let sub = subs.get(file);
      const now = sub?.update();
      if (sub && now) return now.session;
      sub = followChat(file, { subagents: false });
      subs.set(file, sub);
      return sub.loaded.session;
    });
    for (const p of [...subs.keys()]) if (!files.includes(p)) subs.delete(p);
    return { session, subagents };
  };
  let loaded = assemble();
  return {
    get loaded() {
      return loaded;
    },
    update(o: LoadOptions = {}) {
      try {
        if (!main.advance(o.progress)) return null;
        loaded = assemble();
        return loaded;
      } catch (error) {
        if (isCancelled(error)) throw error;
        return null;
      }
    },
  };
}

/** A chat read whole (as `load` reads it), and null from the first update that finds any of its files changed. */
function wholeReads(path: string, options: LoadOptions): SessionFollower {
  const session = readChatFile(path, options.progress ? { progress: options.progress } : {});
  const files = options.subagents === false ? [] : subagentFiles(path, session);
  const loaded: LoadedSession = { session, subagents: files.map((p) => readChatFile(p)) };
  const stamps = [path, ...files].map(stampOf);
  return {
    loaded,
    update() {
      const now = [path, ...(options.subagents === false ? [] : subagentFiles(path, session))];
      return now.length === stamps.length && now.every((p, i) => stampOf(p) === stamps[i]) ? loaded : null;
    },
  };
}

function stampOf(path: string): string {
  try {
    const st = statSync(path);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
