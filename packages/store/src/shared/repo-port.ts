import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
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

/**
 * The disk as a token holder may see it: only paths inside these folders are looked at (checked as
 * given and after links are resolved, so a link inside pointing out is not followed); anything else is
 * 'unreadable', which proves nothing (no drift diff, no "gone"). An empty list reads nothing.
 */
export function scopedRepoPort(folders: readonly string[], base: RepoStatePort = nodeRepoPort()): RepoStatePort {
  const bases = [...new Set(folders.flatMap((f) => [resolve(f), realOrNull(f)]).filter((f): f is string => f !== null))];
  const inside = (p: string): boolean => bases.some((b) => p === b || p.startsWith(b.endsWith(sep) ? b : b + sep));
  const allowed = (path: string): boolean => {
    const given = resolve(path);
    if (!inside(given)) return false;
    const real = realOrNull(given);
    return real === null || inside(real);
  };
  return {
    kind: (path) => (allowed(path) ? base.kind(path) : 'unreadable'),
    readText: (path) => (allowed(path) ? base.readText(path) : null),
  };
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

export function nodeAnalysisPorts(): AnalysisPorts {
  return {
    repo: nodeRepoPort(),
    hash: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
    now: () => new Date(),
  };
}
