import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths';

const GEMINI_CORPUS = join(REPO_ROOT, 'fixtures/corpus/gemini');
export const CLAUDE_TRANSCRIPT = join(REPO_ROOT, 'fixtures/corpus/generated/01-superseded-reads/transcript.jsonl');
export const CODEX_ROLLOUT_DIR = join(REPO_ROOT, 'fixtures/corpus/codex/01-shell-reads-and-patch/sessions/2026/12/01');

/** What the harness wrote about one run (manifest.json). */
interface Manifest {
  name: string;
  cli: string;
  model: string;
  cwd: string;
  projectFolder: string;
  sessions: { file: string; sessionId: string; kind: string | null; messages: number; resumable: boolean }[];
  steps: { step: number; prompt?: string; stats?: ClientStats | null }[];
}

/** The client's own token counts (`gemini -p … --output-format json`, `stats.models`). */
interface ClientStats {
  models: Record<string, { api: { totalRequests: number }; tokens: { prompt: number; candidates: number; cached: number; thoughts: number; tool: number; input: number; total: number }; roles?: Record<string, { totalRequests: number; tokens: { prompt: number; candidates: number; cached: number; thoughts: number } }> }>;
}

/** One generated run: `fixtures/corpus/gemini/<scenario>/v<version>/`. */
export interface Fixture {
  scenario: string;
  version: string;
  dir: string;
  manifest: Manifest;
}

export function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const scenario of readdirSync(GEMINI_CORPUS).filter((d) => /^\d\d-/.test(d)).sort()) {
    for (const v of readdirSync(join(GEMINI_CORPUS, scenario)).filter((d) => /^v\d/.test(d)).sort()) {
      const dir = join(GEMINI_CORPUS, scenario, v);
      out.push({ scenario, version: v.slice(1), dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest });
    }
  }
  return out;
}

export function fixture(scenario: string, version: string): Fixture {
  const f = fixtures().find((x) => x.scenario === scenario && x.version === version);
  if (!f) throw new Error(`no fixture ${scenario} v${version}`);
  return f;
}

/** The chat a person would resume: the main chat with the most messages (a resume's stub file has none). */
export function mainChat(f: Fixture): string {
  const best = f.manifest.sessions.filter((s) => s.kind !== 'subagent' && s.resumable).sort((a, b) => b.messages - a.messages)[0];
  if (!best) throw new Error(`${f.dir}: no main chat`);
  return join(f.dir, best.file);
}

export function chatFiles(f: Fixture): string[] {
  return f.manifest.sessions.map((s) => join(f.dir, s.file)).filter((p) => existsSync(p));
}

/** The request the real client sent when it resumed the main chat (recorded by the harness). */
export interface ResumeRequest {
  cli: string;
  sessionId: string;
  contents: { role: string; parts: Record<string, unknown>[] }[];
}

export function resumeRequest(f: Fixture): ResumeRequest {
  return JSON.parse(readFileSync(join(f.dir, 'resume-request.json'), 'utf8')) as ResumeRequest;
}

/** The lines of a file without the empty string after its final newline. */
export function linesOf(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
