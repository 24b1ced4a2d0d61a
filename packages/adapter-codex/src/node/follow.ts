import { basename } from 'node:path';
import { isCancelled, type LoadOptions, type LoadedSession, type SessionFollower } from '@glassbox/core';
import { FollowedLines } from '@glassbox/file-io';
import { RolloutParser } from '../parser';
import { sessionIdFromFileName } from '../discover-names';
import { withCapturedText } from './read-file';

/**
 * Follows a Codex rollout as its client appends to it: the parser is kept, an update feeds it only
 * the complete lines appended since, and the session is a copy of the parser finished (RolloutParser.copy),
 * so the file is never read again. A rollout was not only appended to when it is rewritten, truncated
 * or replaced: the update gives null and the caller reads it whole.
 */
export function followRollout(path: string, options: LoadOptions = {}): SessionFollower {
  const parser = new RolloutParser({ path, fallbackId: sessionIdFromFileName(basename(path)) ?? '' });
  const lines = new FollowedLines(path, (text, line, offset, length) => parser.push(text, line, offset, length), options.progress);
  const now = (): LoadedSession => {
    const copy = parser.copy();
    return { session: withCapturedText(path, copy, copy.finish(true)), subagents: [] };
  };
  let loaded = now();
  return {
    get loaded() {
      return loaded;
    },
    update(o: LoadOptions = {}) {
      try {
        const found = lines.advance(o.progress);
        if (found === 'rewritten') return null;
        if (found === 'appended') loaded = now();
        return loaded;
      } catch (error) {
        if (isCancelled(error)) throw error;
        return null;
      }
    },
  };
}
