import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
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

  it('previews elision as the fork would write it: the largest three, head + marker + tail cut from the session\u2019s own text', () => {
    const { glassbox, path, repo } = scratch('03-large-outputs');
    const elide = { overTokens: 500, keep: { chars: 600, lines: 10 } };
    const got = glassbox.forks.elisionSamples({ path, repoRootFor: () => repo, protectTail: 0, elide });
    expect(got.elide).toEqual(elide);
    expect(got.results).toBeGreaterThanOrEqual(3);
    expect(got.samples).toHaveLength(3);
    expect(got.samples.map((s) => s.tokens)).toEqual([...got.samples.map((s) => s.tokens)].sort((a, b) => b - a));
    const text = readFileSync(path, 'utf8');
    for (const s of got.samples) {
      expect(s.head.length).toBeLessThanOrEqual(600);
      expect(s.tail.length).toBeLessThanOrEqual(600);
      expect(s.head.split('\n').length - 1).toBeLessThanOrEqual(10);
      expect(s.marker).toMatch(new RegExp(`^\\[… [\\d,]+ lines \\(.+ chars\\) elided by glassbox — recall ${s.sha256Prefix} …\\]$`));
      // The ends are the result's own: each is in the transcript as written (JSON-escaped).
      expect(text).toContain(JSON.stringify(s.head).slice(1, -1));
      expect(text).toContain(JSON.stringify(s.tail).slice(1, -1));
      expect(s.keptTokens).toBeLessThan(s.tokens);
    }
    expect(got.netTokens).toBeLessThan(got.tokens);
    // A fork written with the same thresholds holds exactly the previewed text, and the archive its middle.
    const outcome = glassbox.forks.write({ path, repoRootFor: () => repo, protectTail: 0, minimumSavings: 0, classes: ['elided'], elide });
    if (outcome.status !== 'written') throw new Error(`not written: ${outcome.status}`);
    const fork = readFileSync(outcome.written.forkPath, 'utf8');
    for (const s of got.samples) expect(fork).toContain(JSON.stringify(`${s.head}${s.marker}\n${s.tail}`).slice(1, -1));
    const first = got.samples[0];
    if (!first) throw new Error('no sample');
    const shown = glassbox.forks.show(outcome.written.forkId, first.sha256Prefix);
    expect(shown[0]?.path).toBe('elided middle');
    expect(shown[0]?.sha256.startsWith(first.sha256Prefix)).toBe(true);
    // Over a threshold no result reaches, there is nothing to show, and that is an answer, not an error.
    const none = glassbox.forks.elisionSamples({ path, repoRootFor: () => repo, elide: { overTokens: 1_000_000 } });
    expect(none.results).toBe(0);
    expect(none.samples).toEqual([]);
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

  it('undoes a fork: moves it with its side files into the archive, the folder as before the fork, and restore brings it back', () => {
    const { glassbox, path, folder, repo } = scratch('03-large-outputs');
    const before = listing(folder);
    const outcome = glassbox.forks.write({ path, repoRootFor: () => repo, minimumSavings: 0 });
    if (outcome.status !== 'written') throw new Error(`not written: ${outcome.status}`);
    const fork = outcome.written;
    const forkBytes = readFileSync(fork.forkPath);
    expect(listing(folder).length).toBeGreaterThan(before.length + 1);
    // A path that is not the fork's own file is refused, and nothing moves.
    expect(() => glassbox.forks.remove(path)).toThrow(Refusal);
    const removed = glassbox.forks.remove(fork.forkId);
    expect(removed.path).toBe(fork.forkPath);
    expect(removed.removed[0]).toBe(fork.forkPath);
    expect(removed.removed.length).toBeGreaterThan(1);
    expect(listing(folder)).toEqual(before);
    // Undone twice: the second says it is gone already.
    expect(() => glassbox.forks.remove(fork.forkId)).toThrow(/not at .* any more/);
    // Recoverable: the archive holds it, and restore writes it back where it was, byte for byte.
    const { restored } = glassbox.keeping.restore(removed.restoreCommand.split(' ').at(-1) as string, { mapped: () => null });
    expect(restored.path).toBe(fork.forkPath);
    expect(readFileSync(fork.forkPath).equals(forkBytes)).toBe(true);
    expect(glassbox.forks.verify(fork.forkId).report.ok).toBe(true);
  });

  it('refuses to undo a fork whose original is gone: the fork would be the only copy left', () => {
    const { glassbox, path, repo } = scratch('02-gone-drift-errors');
    const outcome = glassbox.forks.write({ path, repoRootFor: () => repo, minimumSavings: 0 });
    if (outcome.status !== 'written') throw new Error(`not written: ${outcome.status}`);
    rmSync(path);
    let refusal: unknown = null;
    try {
      glassbox.forks.remove(outcome.written.forkId);
    } catch (error) {
      refusal = error;
    }
    expect(refusal instanceof Refusal && refusal.code).toBe('original_missing');
    expect(readFileSync(outcome.written.forkPath).length).toBeGreaterThan(0);
  });
});

/** Every file under a folder, by its path inside it. */
function listing(folder: string): string[] {
  return (readdirSync(folder, { recursive: true, withFileTypes: true }) as Dirent[])
    .map((d) => join(d.parentPath, d.name).slice(folder.length + 1))
    .sort();
}
