import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { AnalysisPorts } from '@glassbox/analysis';

/**
 * The analysis's ports on this machine for the adapter's tests (the store's own ports are a layer above
 * the adapter), with the clock fixed at the day the Codex corpus was recorded.
 */
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
  now: () => new Date('2026-12-01T12:00:00Z'),
};
