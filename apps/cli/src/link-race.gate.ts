// The flipping-link race, played for real: while `glassbox clean --fork` runs on a real session (fixture
// 04, with a subagent file), another process swaps `<session>/subagents` between the real folder and a
// link to a folder of 2,500 files from outside, as fast as it can. Opening with O_NOFOLLOW guards only
// the last part of a path, so forks used to carry outside files into the fork and the archive (1,165 of
// 2,500 in 2–5 tries on another machine). Every fork must be either refused, naming the link, or hold
// none of them; the same for keep. The race is timing-dependent (here ten forks have not always hit it):
// the check that closes it is pinned deterministically in packages/store/src/shared/in-place.test.ts.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './commands/cli-test-io';

const FIXTURE = resolve(import.meta.dirname, '../../../fixtures/corpus/generated/04-subagent-compact-multiturn');
const MARK = 'OUTSIDE-FILE-NEVER-CARRIED';
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir` that holds the outside files' mark (the flipper's own link, which leads to them, aside). */
function marked(dir: string, outside: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((p) => {
      try {
        return !realpathSync(p).startsWith(outside) && readFileSync(p, 'utf8').includes(MARK);
      } catch {
        return false; // a folder
      }
    });
}

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-race-'));
  made.push(root);
  const config = join(root, 'config');
  const project = join(config, 'projects', '-race');
  cpSync(join(FIXTURE, 'claude-project'), project, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(FIXTURE, 'manifest.json'), 'utf8')) as { session_ids: string[] };
  const id = manifest.session_ids[0] as string;
  const outside = join(root, 'outside');
  mkdirSync(outside);
  for (let i = 0; i < 2500; i++) writeFileSync(join(outside, `agent-outside-${i}.jsonl`), `{"note":"${MARK} ${i}"}\n`);
  return { root, project, id, outside, session: join(project, `${id}.jsonl`), env: { CLAUDE_CONFIG_DIR: config, GLASSBOX_DATA_DIR: join(root, 'data'), HOME: root } };
}

/** A process swapping `<session>/subagents` between the real folder and a link to `outside`, until killed. */
function flipper(folder: string, outside: string) {
  const script = `
    const fs = require('fs'); const p = require('path');
    const dir = ${JSON.stringify(join(folder, 'subagents'))}, real = dir + '.real', link = dir + '.link';
    fs.renameSync(dir, real); fs.symlinkSync(${JSON.stringify(outside)}, link);
    process.stdout.write('ready\\n');
    for (;;) { fs.renameSync(link, dir); fs.renameSync(dir, link); fs.renameSync(real, dir); fs.renameSync(dir, real); }`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<void>((r) => child.stdout?.once('data', () => r()));
  return { ready, stop: () => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGKILL')))) };
}

describe('a folder in the middle of a side file path flipped to a link and back', () => {
  it('never carries an outside file into a fork or its archive (ten forks while it flips)', async () => {
    const s = setup();
    const flip = flipper(join(s.project, s.id), s.outside);
    await flip.ready;
    const outcomes: number[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const r = await runCli(['clean', s.session, '--repo', join(FIXTURE, 'project-after'), '--fork', '--json'], s.env);
        outcomes.push(r.code);
        if (r.code !== 0) expect(r.err).toMatch(/link|cannot be read|no such file/);
      }
    } finally {
      await flip.stop();
    }
    expect(marked(s.project, s.outside)).toEqual([]);
    expect(marked(join(s.root, 'data', 'archive'), s.outside)).toEqual([]);
    // Some forks got through between the flips, and some were refused: both happened for real.
    expect(outcomes.length).toBe(10);
    expect(outcomes.every((c) => c === 0 || c === 1)).toBe(true);
  });

  it('never keeps an outside file (five keeps while it flips)', async () => {
    const s = setup();
    const flip = flipper(join(s.project, s.id), s.outside);
    await flip.ready;
    try {
      for (let i = 0; i < 5; i++) {
        const r = await runCli(['keep', s.session], s.env);
        expect([0, 1]).toContain(r.code);
        // A keep between versions of the archive: read it back and look for the mark.
        for (const v of readdirSync(join(s.root, 'data', 'archive', 'kept'), { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.json') && !n.endsWith('gone.json'))) {
          const m = JSON.parse(readFileSync(join(s.root, 'data', 'archive', 'kept', v), 'utf8')) as { parts: { files: { rel: string }[] }[] };
          expect(m.parts.flatMap((p) => p.files.map((f) => f.rel)).filter((rel) => rel.includes('agent-outside-'))).toEqual([]);
        }
      }
    } finally {
      await flip.stop();
    }
  });
});
