// Test support: a scratch copy of a corpus session's projects folder, so forks are written next to
// a real session without touching the fixtures.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, chmodSync, rmSync, statSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planFromFile, type WriteForkOptions } from '@glassbox/store/fork';
import { defaultAgents } from '@glassbox/agents';
import { agentForFile } from '@glassbox/file-io';
import { REPO_ROOT } from '../paths';

export { REPO_ROOT };

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();


export interface Scratch {
  root: string;
  projectDir: string;
  sourcePath: string;
  sessionId: string;
  archiveDir: string;
  repoRoot: string;
}

export function scratchSession(name: string): Scratch {
  const fixture = join(REPO_ROOT, 'fixtures/corpus/generated', name);
  const manifest = JSON.parse(readFileSync(join(fixture, 'manifest.json'), 'utf8')) as { session_ids?: string[] };
  const root = mkdtempSync(join(tmpdir(), 'glassbox-fork-'));
  const projectDir = join(root, 'projects', 'scratch-project');
  cpSync(join(fixture, 'claude-project'), projectDir, { recursive: true });
  makeWritable(projectDir);
  // Checkpoint backups live in the config folder, beside `projects/`, as in ~/.claude.
  if (existsSync(join(fixture, 'file-history'))) {
    cpSync(join(fixture, 'file-history'), join(root, 'file-history'), { recursive: true });
    makeWritable(join(root, 'file-history'));
  }
  const first = readFileSync(join(fixture, 'transcript.jsonl'), 'utf8').split('\n', 1)[0] ?? '';
  const sessionId = manifest.session_ids?.[0] ?? (/"sessionId":"([^"]+)"/.exec(first)?.[1] as string);
  return { root, projectDir, sourcePath: join(projectDir, `${sessionId}.jsonl`), sessionId, archiveDir: join(root, 'archive'), repoRoot: join(fixture, 'project-after') };
}

/** Scratch sessions for one test file: `scratch(name)` makes one, removed after each test. */
export function useScratches(): (name: string) => Scratch {
  const made: Scratch[] = [];
  afterEach(() => {
    for (const s of made.splice(0)) rmSync(s.root, { recursive: true, force: true });
  });
  return (name) => {
    const s = scratchSession(name);
    made.push(s);
    return s;
  };
}

/** The corpus is read-only on disk; the copy must be writable like a real projects folder. */
function makeWritable(path: string): void {
  chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  if (statSync(path).isDirectory()) for (const n of readdirSync(path)) makeWritable(join(path, n));
}

/** writeFork's options for a scratch session, planned by the real planner with the scenario's project as it was left. */
export function plannedForkOptions(s: Scratch, extra: Partial<WriteForkOptions> = {}): WriteForkOptions {
  return {
    agents: TEST_AGENTS,
    sourcePath: s.sourcePath,
    archiveDir: s.archiveDir,
    prepare: (src) => ({ actions: planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), repoRoot: s.repoRoot }).actions, cwd: '/somewhere' }),
    ...extra,
  };
}

/** Every file under a folder, relative, sorted: to prove that a failure left nothing behind. */
export function tree(dir: string, rel = ''): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(join(dir, rel)).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const r = rel ? `${rel}/${n}` : n;
    if (statSync(join(dir, r)).isDirectory()) out.push(`${r}/`, ...tree(dir, r));
    else out.push(r);
  }
  return out;
}

/**
 * A hand-made plan for tests that are about writing, not about planning: the last successful tool
 * result of the main thread worth a tombstone (after any compaction, so it is resident).
 */
export function lastResultAction(lines: readonly string[]): { uuid: string; line: number; blockIndex: number; target: 'tool-result'; toolUseId: string; tombstone: string } {
  let best: { uuid: string; line: number; blockIndex: number; target: 'tool-result'; toolUseId: string; tombstone: string; size: number } | undefined;
  lines.forEach((text, i) => {
    const r = JSON.parse(text) as { uuid?: string; isSidechain?: boolean; message?: { content?: unknown } };
    const content = r.message?.content;
    if (!r.uuid || r.isSidechain || !Array.isArray(content)) return;
    content.forEach((b: { type?: string; is_error?: boolean; tool_use_id?: string; content?: unknown }, j) => {
      if (b.type !== 'tool_result' || b.is_error || !b.tool_use_id) return;
      const size = JSON.stringify(b.content ?? '').length;
      if (size > 100) best = { uuid: r.uuid as string, line: i + 1, blockIndex: j, target: 'tool-result', toolUseId: b.tool_use_id, tombstone: '[glassbox: removed for a test]', size };
    });
  });
  if (!best) throw new Error('no tool result');
  const { size: _size, ...action } = best;
  return action;
}

/** A small transcript's lines, exactly (for hand-made plans in tests). */
export function linesOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}
