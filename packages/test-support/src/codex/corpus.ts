import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths';

export { REPO_ROOT };

export const CODEX_CORPUS = join(REPO_ROOT, 'fixtures/corpus/codex');
const MOONMIND = join(REPO_ROOT, 'fixtures/corpus/public/MoonLadderStudios__MoonMind');
/** 0.57.0 and 0.58.0: the 2025 envelope generation. */
export const MOONMIND_057 = join(MOONMIND, 'rollout-2025-11-12T17-48-11-019a7ae6-1945-7c63-98f2-210adb922af9.jsonl');
export const MOONMIND_058 = join(MOONMIND, 'rollout-2025-11-13T18-21-11-019a802a-aab1-7c31-9831-d2510c7a74a2.jsonl');
export const CLAUDE_TRANSCRIPT = join(REPO_ROOT, 'fixtures/corpus/generated/01-superseded-reads/transcript.jsonl');

/** The rollout files of one generated scenario, in name order (a fork or subagent after its parent). */
export function scenarioRollouts(name: string): string[] {
  const sessions = join(CODEX_CORPUS, name, 'sessions');
  const out: string[] = [];
  for (const y of readdirSync(sessions).sort())
    for (const m of readdirSync(join(sessions, y)).sort())
      for (const d of readdirSync(join(sessions, y, m)).sort()) {
        const dir = join(sessions, y, m, d);
        out.push(...readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f)));
      }
  return out;
}

export function firstRollout(name: string): string {
  return scenarioRollouts(name)[0] as string;
}

export const SCENARIOS = [
  '01-shell-reads-and-patch',
  '02-duplicates-deletes-errors',
  '03-long-session-compaction',
  '04-read-grammar-and-fork',
  '05-subagent-forked-thread',
  '06-subagent-fork-context',
];

/** Every rollout in the corpus: the generated ones and the two public ones. */
export function allRollouts(): string[] {
  return [...SCENARIOS.flatMap(scenarioRollouts), MOONMIND_057, MOONMIND_058];
}

/** The lines of a file without the empty string after its final newline. */
export function linesOf(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function manifestCwd(name: string): string {
  return (JSON.parse(readFileSync(join(CODEX_CORPUS, name, 'manifest.json'), 'utf8')) as { cwd: string }).cwd;
}
