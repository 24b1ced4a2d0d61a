// Test helpers: real corpus folders from fixtures/ copied into temporary projects roots.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS } from '../paths';

export { CORPUS };


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

/** The Codex rollouts of the corpus: each generated scenario's sessions tree, and the two public 2025 ones. */
const CODEX_SCENARIOS = readdirSync(join(CORPUS, 'codex')).filter((n) => /^\d\d-/.test(n));
const CODEX_PUBLIC = join(CORPUS, 'public', 'MoonLadderStudios__MoonMind');

/**
 * A Codex home shaped as Codex writes it: every generated scenario's `sessions/YYYY/MM/DD/` files, and
 * the public 2025 rollouts under the date folder their names give. Returns the copied rollout paths.
 */
export function copyCodexHome(home: string): string[] {
  const out: string[] = [];
  for (const s of CODEX_SCENARIOS) {
    cpSync(join(CORPUS, 'codex', s, 'sessions'), join(home, 'sessions'), { recursive: true });
  }
  for (const name of readdirSync(CODEX_PUBLIC).filter((n) => n.endsWith('.jsonl'))) {
    const [, y, m, d] = /^rollout-(\d{4})-(\d{2})-(\d{2})T/.exec(name) as RegExpExecArray;
    const dir = join(home, 'sessions', y as string, m as string, d as string);
    mkdirSync(dir, { recursive: true });
    cpSync(join(CODEX_PUBLIC, name), join(dir, name));
  }
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.jsonl')) out.push(join(d, e.name));
    }
  };
  walk(join(home, 'sessions'));
  return out.sort();
}
