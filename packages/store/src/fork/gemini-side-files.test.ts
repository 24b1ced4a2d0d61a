// A Gemini CLI fork carries the session's own side files — its saved tool outputs
// (`tool-outputs/session-<id>/`) and its subagents' chats (`chats/<id>/`) — as copies in the folders
// named by the fork's id, and its text names the copies; the originals are never touched. A chat
// that names a saved output which is not there is refused, naming the file, with nothing written.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { geminiLocator } from '@glassbox/adapter-gemini/node';
import { agentForFile } from '@glassbox/file-io';
import type { ForkAction } from '@glassbox/core';
import { ForkError } from '../shared/atomic';
import { undoFork } from './ops';
import { planFromFile } from './plan-lines';
import { REPO_ROOT } from '@glassbox/test-support/store/fork';
import { writeFork } from './writer';

const TEST_AGENTS = defaultAgents();
const CORPUS = join(REPO_ROOT, 'fixtures/corpus/gemini');

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A scratch copy of a run's project folder (`~/.gemini/tmp/inventory/`), and its main chat. */
function project(scenario: string, version: string): { dir: string; chat: string; id: string; after: string; archiveDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-gemini-side-'));
  made.push(root);
  const run = join(CORPUS, scenario, `v${version}`);
  const manifest = JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')) as { projectFolder: string; sessions: { file: string; sessionId: string; kind: string | null; messages: number }[] };
  const dir = join(root, 'tmp', manifest.projectFolder);
  cpSync(join(run, 'gemini-tmp', manifest.projectFolder), dir, { recursive: true });
  const main = manifest.sessions.filter((s) => s.kind !== 'subagent').sort((a, b) => b.messages - a.messages)[0] as { file: string; sessionId: string };
  return { dir, chat: join(root, 'tmp', manifest.projectFolder, main.file.split('/').slice(-2).join('/')), id: main.sessionId, after: join(run, 'project-after'), archiveDir: join(root, 'archive') };
}

/** The planner's fork, or (`largest`) one that tombstones the largest output: a scenario with nothing dead. */
function fork(p: { chat: string; after: string; archiveDir: string }, largest = false) {
  return writeFork({
    agents: TEST_AGENTS,
    sourcePath: p.chat,
    archiveDir: p.archiveDir,
    prepare: (src) => {
      if (largest) return { actions: [largestOutput(src.path)] };
      const plan = planFromFile(src.path, { agent: agentForFile(TEST_AGENTS, src.path), repoRoot: p.after, forkSessionId: src.forkId });
      return { actions: plan.actions, cwd: plan.session.cwd, indexed: plan.indexed, session: plan.session };
    },
  });
}

function largestOutput(path: string): ForkAction {
  const s = geminiLocator.parseFile(path);
  let best: ForkAction | null = null;
  let bytes = 0;
  for (const u of s.order) {
    const n = s.nodes.get(u);
    if (!n || n.kind !== 'tool-results') continue;
    n.blocks.forEach((b, i) => {
      if (b.isError || !b.toolUseId || b.bytes <= bytes) return;
      bytes = b.bytes;
      best = { uuid: n.uuid, line: n.line, blockIndex: i, target: 'tool-result', toolUseId: b.toolUseId, tombstone: '[output removed]' };
    });
  }
  if (!best) throw new Error(`${path}: no output`);
  return best;
}

/** Every file under a folder with its sha-256, relative names. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p, `${rel}${n}/`);
      else out[`${rel}${n}`] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return out;
}

describe('a Gemini CLI fork carries its session’s side files', () => {
  it('0.61, masked outputs: the saved outputs copied into tool-outputs/session-<fork id>/, named by the fork, the originals untouched', () => {
    const p = project('04-output-masking', '0.61');
    const before = tree(p.dir);
    const outputs = join(p.dir, 'tool-outputs', `session-${p.id}`);
    const names = readdirSync(outputs).sort();
    expect(names.length).toBe(6);
    const r = fork(p);
    if (r.status !== 'written') throw new Error('refused');
    const copies = join(p.dir, 'tool-outputs', `session-${r.forkId}`);
    expect(readdirSync(copies).sort()).toEqual(names);
    for (const n of names) expect(readFileSync(join(copies, n))).toEqual(readFileSync(join(outputs, n)));
    // Everything that was there is as it was; only the fork and its copies are new.
    const after = tree(p.dir);
    for (const [rel, sha] of Object.entries(before)) expect(after[rel], rel).toBe(sha);
    expect(Object.keys(after).filter((k) => !(k in before)).sort()).toEqual([`chats/${basename(r.forkPath)}`, ...names.map((n) => `tool-outputs/session-${r.forkId}/${n}`)].sort());
    // The fork's text names its own copies, never the original's folder, and each one is there.
    const text = readFileSync(r.forkPath, 'utf8');
    expect(text).not.toContain(`session-${p.id}/`);
    const named = geminiLocator.sideFiles?.referenced(r.forkPath, r.forkId) ?? [];
    expect(named.length).toBe(6);
    for (const f of named) expect(existsSync(f), f).toBe(true);
    expect(r.manifest.sidecars.map((s) => s.rel).sort()).toEqual(names.map((n) => `tool-outputs/${n}`).sort());
    expect(r.report.ok).toBe(true);
  });

  it('0.61, a subagent: its chat copied into chats/<fork id>/, and the fork loads with it', () => {
    const p = project('02-subagent-error', '0.61');
    const r = fork(p, true);
    if (r.status !== 'written') throw new Error('refused');
    const sub = readdirSync(join(p.dir, 'chats', p.id));
    expect(readdirSync(join(p.dir, 'chats', r.forkId))).toEqual(sub);
    expect(geminiLocator.load(r.forkPath).subagents.map((s) => basename(s.path))).toEqual(sub);
    expect(geminiLocator.load(p.chat).subagents.map((s) => basename(s.path))).toEqual(sub);
  });

  it('undo writes the original back with its side files in the folders of its new id', () => {
    const p = project('04-output-masking', '0.61');
    const r = fork(p);
    if (r.status !== 'written') throw new Error('refused');
    const u = undoFork(r.forkId, { agents: TEST_AGENTS, archiveDir: p.archiveDir });
    const names = readdirSync(join(p.dir, 'tool-outputs', `session-${p.id}`)).sort();
    expect(readdirSync(join(p.dir, 'tool-outputs', `session-${u.sessionId}`)).sort()).toEqual(names);
    for (const f of geminiLocator.sideFiles?.referenced(u.path, u.sessionId) ?? []) expect(existsSync(f), f).toBe(true);
  });

  it('a saved output the chat names is missing: refused, naming the file; nothing written', () => {
    const p = project('04-output-masking', '0.61');
    const outputs = join(p.dir, 'tool-outputs', `session-${p.id}`);
    const gone = join(outputs, readdirSync(outputs).sort()[0] as string);
    unlinkSync(gone);
    const before = tree(p.dir);
    let error: unknown;
    try {
      fork(p);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ForkError);
    expect((error as ForkError).code).toBe('side_file_missing');
    expect((error as ForkError).message).toContain(gone);
    expect((error as ForkError).message).toContain('nothing was written');
    expect(tree(p.dir)).toEqual(before);
    expect(existsSync(join(p.archiveDir, 'manifests')) ? readdirSync(join(p.archiveDir, 'manifests')) : []).toEqual([]);
  });
});
