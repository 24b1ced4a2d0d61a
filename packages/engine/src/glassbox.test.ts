import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { Glassbox } from './glassbox';
import { Refusal } from './failures';

const GENERATED = resolve(import.meta.dirname, '../../../fixtures/corpus/generated');
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A real session's projects folder copied under a config folder of its own, and the application layer over it. */
function scratch(name: string): { glassbox: Glassbox; path: string; folder: string; repo: string } {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-engine-'));
  made.push(dir);
  const manifest = JSON.parse(readFileSync(join(GENERATED, name, 'manifest.json'), 'utf8')) as { session_ids: string[]; project_slug: string };
  const folder = join(dir, 'claude', 'projects', manifest.project_slug);
  cpSync(join(GENERATED, name, 'claude-project'), folder, { recursive: true });
  const env = { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), GEMINI_CLI_HOME: join(dir, 'gemini'), GLASSBOX_DATA_DIR: join(dir, 'data') };
  const glassbox = new Glassbox({ agents: defaultAgents(), ports: nodeAnalysisPorts(), env, home: dir });
  return { glassbox, path: join(folder, `${manifest.session_ids[0]}.jsonl`), folder, repo: join(GENERATED, name, 'project-after') };
}

describe('the application layer', () => {
  it('writes a fork with its proofs, and the preview said exactly what the write did', () => {
    const { glassbox, path, repo } = scratch('02-gone-drift-errors');
    const request = { path, repoRootFor: () => repo, minimumSavings: 0 };
    const preview = glassbox.forks.preview(request);
    expect(preview.report?.ok).toBe(true);
    const outcome = glassbox.forks.write(request);
    if (outcome.status !== 'written') throw new Error(`not written: ${outcome.status}`);
    expect(outcome.written.applied.map((a) => a.action.segmentId)).toEqual(preview.fork?.applied.map((a) => a.action.segmentId));
    expect(outcome.resume.command).toContain(outcome.written.forkId);
    // The fork is a fork from its manifest: the lineage links it to its original, both ways.
    expect(glassbox.forks.lineage().byForkId.get(outcome.written.forkId)?.original.path).toBe(path);
    expect(glassbox.forks.verify(outcome.written.forkId).report.ok).toBe(true);
  });

  it('elides only when elided is chosen (as the window\'s wizard asks), with the defaults, and recalls the middle of this session only', () => {
    const { glassbox, path, repo } = scratch('03-large-outputs');
    const base = { path, repoRootFor: () => repo, minimumSavings: 0, protectTail: 0 };
    expect(glassbox.forks.preview(base).planned.plan.actions.some((a) => a.class === 'elided')).toBe(false);
    const request = { ...base, classes: ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'elided'] as const };
    const preview = glassbox.forks.preview({ ...request, classes: [...request.classes] });
    expect(preview.planned.plan.actions.some((a) => a.class === 'elided')).toBe(true);
    expect(preview.report?.checks.find((c) => c.id === 'elisions')?.ok).toBe(true);
    const outcome = glassbox.forks.write({ ...request, classes: [...request.classes] });
    if (outcome.status !== 'written') throw new Error(`not written: ${outcome.status}`);
    const elision = outcome.written.manifest.actions.find((a) => a.elision)?.elision;
    if (!elision) throw new Error('no elision in the manifest');
    const recall = glassbox.forks.recall(outcome.written.forkId);
    expect(recall.recall(elision.sha256.slice(0, 12), 0, 2000).entry.sha256).toBe(elision.sha256);
    // The original is not a fork: nothing of it can be recalled through its own id.
    expect(glassbox.forks.recall(outcome.written.manifest.original.sessionId).entries).toEqual([]);
  });

  it('answers "nothing to remove" for a session with nothing provably dead, and writes nothing', () => {
    const { glassbox, path, folder } = scratch('13-api-error');
    const before = readdirSync(folder).sort();
    const outcome = glassbox.forks.write({ path, repoRootFor: () => null });
    expect(outcome.status).toBe('nothing-to-remove');
    expect(outcome.plan.plan.actions).toEqual([]);
    expect(readdirSync(folder).sort()).toEqual(before);
  });

  it('finds a session by id or unambiguous prefix under the agents\u2019 roots, and refuses a file that holds none', () => {
    const { glassbox, path } = scratch('01-superseded-reads');
    const id = path.slice(path.lastIndexOf('/') + 1, -'.jsonl'.length);
    expect(glassbox.sessions.findById(id).found.map((f) => f.path)).toEqual([path]);
    expect(glassbox.sessions.findById(id.slice(0, 8)).found.map((f) => f.path)).toEqual([path]);
    const empty = join(mkdtempSync(join(tmpdir(), 'glassbox-engine-')), 'empty.jsonl');
    made.push(join(empty, '..'));
    cpSync('/dev/null', empty);
    expect(() => glassbox.sessions.open(empty)).toThrow(Refusal);
  });

  it('keeps a session and restores it as its client can resume it, never over a file', () => {
    const { glassbox, path } = scratch('01-superseded-reads');
    const kept = glassbox.keeping.keep(path);
    expect(kept.status).toBe('kept');
    let refusal: unknown = null;
    try {
      glassbox.keeping.restore(kept.sessionId, { mapped: () => null });
    } catch (error) {
      refusal = error;
    }
    // The original is still there: a restore would write over it, so it is refused and nothing is written.
    expect(refusal instanceof Refusal && !refusal.bad && refusal.code).toBe('exists');
    rmSync(path);
    const { restored, resume } = glassbox.keeping.restore(kept.sessionId, { mapped: () => null });
    expect(restored.path).toBe(path);
    expect(resume.command ?? resume.note).toBeTruthy();
  });
});
