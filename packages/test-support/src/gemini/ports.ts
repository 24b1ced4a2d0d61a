import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { AnalysisPorts } from '@glassbox/analysis';

/** The analysis's ports on this machine for the adapter's tests, the clock at the day the corpus was made. */
export const testPorts: AnalysisPorts = {
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
  now: () => new Date('2026-12-02T12:00:00Z'),
};
