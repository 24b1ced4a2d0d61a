import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { AnalysisPorts, PathKind, RepoStatePort } from '@glassbox/analysis';

/** Files larger than this are not read for drift checks: Claude Code itself refuses reads over 256 KB. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

export function nodeRepoPort(): RepoStatePort {
  return {
    kind(path: string): PathKind {
      try {
        const st = statSync(path);
        return st.isDirectory() ? 'dir' : 'file';
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable';
      }
    },
    readText(path: string): string | null {
      try {
        if (statSync(path).size > MAX_READ_BYTES) return null;
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
  };
}

export function nodeAnalysisPorts(): AnalysisPorts {
  return {
    repo: nodeRepoPort(),
    hash: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
    now: () => new Date(),
  };
}
