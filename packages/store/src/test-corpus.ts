// Test helpers: real corpus folders from fixtures/ copied into temporary projects roots.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CORPUS = resolve(import.meta.dirname, '../../../fixtures/corpus');

export const SCENARIOS = readdirSync(join(CORPUS, 'generated')).filter((n) => /^\d\d-/.test(n));

export interface TempTree {
  dir: string;
  /** A fresh projects root inside dir. */
  root(name: string): string;
  cleanup(): void;
}

export function tempTree(): TempTree {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-store-'));
  return {
    dir,
    root(name) {
      const r = join(dir, name, 'projects');
      mkdirSync(r, { recursive: true });
      return r;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Copies a generated scenario's whole projects folder as project `-<scenario>` under root; returns its folder. */
export function copyScenario(root: string, scenario: string): string {
  const dest = join(root, `-${scenario}`);
  cpSync(join(CORPUS, 'generated', scenario, 'claude-project'), dest, { recursive: true });
  return dest;
}

/** Copies the public Claude Code transcripts of one source as a project folder. */
export function copyPublic(root: string, source: string): string {
  const dest = join(root, `-${source}`);
  mkdirSync(dest, { recursive: true });
  for (const name of readdirSync(join(CORPUS, 'public', source))) {
    if (name.endsWith('.jsonl')) cpSync(join(CORPUS, 'public', source, name), join(dest, name));
  }
  return dest;
}
