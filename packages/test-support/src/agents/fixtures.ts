import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS } from '../paths';


/** One transcript a real client wrote, and the project as its run left it (for the proofs). */
export interface ConformanceFixture {
  name: string;
  path: string;
  repoRoot: string | null;
}

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (keep(e.name)) out.push(p);
  }
  return out;
}

/** Claude Code: every generated run's transcript. */
function claudeCode(): ConformanceFixture[] {
  const root = join(CORPUS, 'generated');
  return readdirSync(root)
    .filter((d) => /^\d\d-/.test(d))
    .sort()
    .map((d) => ({ name: d, path: join(root, d, 'transcript.jsonl'), repoRoot: join(root, d, 'project-after') }));
}

/** Codex CLI: every rollout of every run, and the published rollouts of the 2025 generation (0.57, 0.58: no project). */
function codex(): ConformanceFixture[] {
  const root = join(CORPUS, 'codex');
  const generated = readdirSync(root)
    .filter((d) => /^\d\d-/.test(d))
    .sort()
    .flatMap((d) => walk(join(root, d, 'sessions'), (n) => n.startsWith('rollout-') && n.endsWith('.jsonl')).sort().map((p, i) => ({ name: `${d}#${i + 1}`, path: p, repoRoot: join(root, d, 'project-after') })));
  const published = join(CORPUS, 'public/MoonLadderStudios__MoonMind');
  const public2025 = readdirSync(published)
    .filter((n) => n.startsWith('rollout-') && n.endsWith('.jsonl'))
    .sort()
    .map((n) => ({ name: `MoonMind ${n.slice(8, 18)}`, path: join(published, n), repoRoot: null }));
  return [...generated, ...public2025];
}

/** Gemini CLI: the main chat of every run and version the harness generated (the one with most messages). */
function gemini(): ConformanceFixture[] {
  const root = join(CORPUS, 'gemini');
  const out: ConformanceFixture[] = [];
  for (const d of readdirSync(root).filter((x) => /^\d\d-/.test(x)).sort()) {
    for (const v of readdirSync(join(root, d)).filter((x) => /^v\d/.test(x)).sort()) {
      const dir = join(root, d, v);
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sessions: { file: string; kind: string | null; messages: number; resumable: boolean }[] };
      const main = manifest.sessions.filter((s) => s.kind !== 'subagent' && s.resumable).sort((a, b) => b.messages - a.messages)[0];
      if (main && statSync(join(dir, main.file), { throwIfNoEntry: false })) out.push({ name: `${d} ${v}`, path: join(dir, main.file), repoRoot: join(dir, 'project-after') });
    }
  }
  return out;
}

/** Each agent's fixtures, by its format id: an agent without an entry fails the suite. */
export const CONFORMANCE_FIXTURES: Readonly<Record<string, () => ConformanceFixture[]>> = {
  'claude-code': claudeCode,
  codex,
  gemini,
};
