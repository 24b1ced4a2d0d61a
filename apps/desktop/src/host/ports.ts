// The Node analysis ports. packages/store has the same in repo-port.ts, but the store's package entry
// (src/index.ts) has not landed yet; swap this import for `nodeAnalysisPorts` from '@glassbox/store' then.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { AnalysisPorts, PathKind } from '@glassbox/analysis';

const MAX_READ_BYTES = 8 * 1024 * 1024;

export function nodeAnalysisPorts(): AnalysisPorts {
  return {
    repo: {
      kind(path: string): PathKind {
        try {
          return statSync(path).isDirectory() ? 'dir' : 'file';
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
    },
    hash: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
    now: () => new Date(),
  };
}
