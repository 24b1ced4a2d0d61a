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

/** Codex CLI: every rollout of every run. */
function codex(): ConformanceFixture[] {
  const root = join(CORPUS, 'codex');
  return readdirSync(root)
    .filter((d) => /^\d\d-/.test(d))
    .sort()
    .flatMap((d) => walk(join(root, d, 'sessions'), (n) => n.startsWith('rollout-') && n.endsWith('.jsonl')).sort().map((p, i) => ({ name: `${d}#${i + 1}`, path: p, repoRoot: join(root, d, 'project-after') })));
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
