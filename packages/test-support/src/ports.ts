import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { AnalysisPorts } from '@glassbox/analysis';

/**
 * The analysis's ports on this machine, for tests below the store (whose own ports are a layer above
 * the adapters), with the clock fixed at the day a corpus was recorded (`day`: YYYY-MM-DD).
 */
export function fixturePorts(day: string): AnalysisPorts {
  return {
    repo: {
      kind: (p) => {
        try {
          return statSync(p).isDirectory() ? 'dir' : 'file';
        } catch {
          return 'missing';
        }
      },
      readText: (p) => {
        try {
          return readFileSync(p, 'utf8');
        } catch {
          return null;
        }
      },
    },
    hash: (t) => createHash('sha256').update(t, 'utf8').digest('hex'),
    now: () => new Date(`${day}T12:00:00Z`),
  };
}
