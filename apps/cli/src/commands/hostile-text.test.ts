// Terminal escape injection, played for real: a session the real Claude Code wrote while working on
// files whose names carry an OSC 52 clipboard write, a zero-width space and a right-to-left override,
// running a command whose output carries colour, clear-screen and OSC sequences, after a first prompt
// holding OSC sequences (fixtures/corpus/hostile/19-hostile-text). Every command prints it; no byte of
// it may reach the terminal as a control, and `--json` must still give the exact strings.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type RunAs } from './cli-test-io';

const FIXTURE = resolve(import.meta.dirname, '../../../../fixtures/corpus/hostile/19-hostile-text');
const MANIFEST = JSON.parse(readFileSync(join(FIXTURE, 'manifest.json'), 'utf8')) as { project_slug: string; session_ids: string[] };
const ID = MANIFEST.session_ids[0] as string;
const REPO = join(FIXTURE, 'project-after');
const OSC52 = '\x1b]52;c;cm0gLXJmIH4K\x07';

/** The characters that must never reach a terminal raw (our own SGR colour sequences aside, when asked for). */
function hidden(text: string, colour: boolean): string[] {
  // eslint-disable-next-line no-control-regex -- the test looks for control characters
  const rest = colour ? text.replace(/\x1b\[[0-9;]*m/g, '') : text;
  // eslint-disable-next-line no-control-regex -- the test looks for control characters
  return [...rest.matchAll(/[\0-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\p{Default_Ignorable_Code_Point}]/gu)].map((m) => `U+${(m[0].codePointAt(0) ?? 0).toString(16)}`);
}

let root = '';
let env: NodeJS.ProcessEnv = {};
let session = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'glassbox-hostile-'));
  const project = join(root, 'config', 'projects', MANIFEST.project_slug);
  mkdirSync(join(root, 'config', 'projects'), { recursive: true });
  cpSync(join(FIXTURE, 'claude-project'), project, { recursive: true });
  session = join(project, `${ID}.jsonl`);
  env = { CLAUDE_CONFIG_DIR: join(root, 'config'), GLASSBOX_DATA_DIR: join(root, 'data'), HOME: root };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const AS: [string, RunAs][] = [
  ['a pipe', {}],
  ['a colour terminal', { color: true, isTTY: true }],
];

describe.each(AS)('every command, printing to %s', (_label, as) => {
  const colour = as.color === true;
  const run = async (args: string[]) => {
    const r = await runCli(args, env, as);
    expect(r.code, r.err).toBe(0);
    expect(hidden(r.out, colour), `stdout of ${args[0]}`).toEqual([]);
    expect(hidden(r.err, colour), `stderr of ${args[0]}`).toEqual([]);
    return r;
  };

  it('inspect names the OSC 52 file, the zero-width space and the override where they are', async () => {
    const r = await run(['inspect', session, '--repo', REPO]);
    expect(r.out).toContain('\\e]52;c;cm0gLXJmIH4K\\anotes.md');
    expect(r.out).toContain('config⟨U+200B⟩.json');
    expect(r.out).toContain('evil⟨U+202E⟩txt.sh');
    expect(r.out).toContain('\\e]0;owned\\a');
  });

  it('xray, clean (dry run), compactions and cost', async () => {
    expect((await run(['xray', session, '--repo', REPO])).out).toContain('⟨U+202E⟩');
    expect((await run(['clean', session, '--repo', REPO])).out).toContain('evil⟨U+202E⟩txt.sh');
    await run(['compactions', '--all', session]);
    await run(['cost', session]);
  });

  it('sessions, keep and archive (titles from the first prompt)', async () => {
    await run(['index']);
    expect((await run(['sessions'])).out).toContain('\\e]0;owned\\a');
    await run(['keep', session]);
    expect((await run(['archive'])).out).toContain('\\e]0;owned\\a');
  });
});

describe('--json', () => {
  it('gives the exact strings: the same values the transcript holds', async () => {
    const r = await runCli(['inspect', session, '--repo', REPO, '--json'], env, { isTTY: true, color: true });
    expect(r.code).toBe(0);
    expect(hidden(r.out, false)).toEqual([]);
    const labels = (JSON.parse(r.out) as { segments: { class: string; source: { label: string } }[] }).segments.filter((s) => s.class !== 'live').map((s) => s.source.label);
    expect(labels).toContain(`docs/${OSC52}notes.md`);
    expect(labels).toContain('src/config\u200b.json');
    expect(labels).toContain('docs/evil\u202etxt.sh');
  });
});

describe('show', () => {
  it('shows a payload by name on a terminal, byte for byte piped or with --raw', async () => {
    const fork = await runCli(['clean', session, '--repo', REPO, '--fork', '--json'], env);
    expect(fork.code, fork.err).toBe(0);
    const doc = JSON.parse(fork.out) as { forkId: string; applied: { segmentId: string; class?: string }[] };
    const dup = doc.applied.find((a) => a.class === 'duplicate');
    expect(dup).toBeDefined();
    const args = ['show', doc.forkId, '--segment', dup?.segmentId as string];
    const tty = await runCli(args, env, { isTTY: true, color: true });
    expect(tty.code).toBe(0);
    expect(hidden(tty.out, true)).toEqual([]);
    expect(tty.out).toContain('\\e]52;c;cm0gLXJmIH4K\\a\\e[2J');
    for (const exact of [await runCli(args, env), await runCli([...args, '--raw'], env, { isTTY: true, color: true })]) {
      expect(exact.code).toBe(0);
      expect(exact.out).toContain(`${OSC52}\x1b[2J\x1b]0;owned\x07done`);
      expect(hidden(exact.err, false)).toEqual([]);
    }
  });
});

describe('cost', () => {
  it('shows a model name by name (the client records whatever model the API answers)', async () => {
    // The same session with its model name replaced: the only edit, made here, never committed.
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-hostile-model-'));
    try {
      const edited = join(dir, `${ID}.jsonl`);
      writeFileSync(edited, readFileSync(session, 'utf8').replaceAll('"model":"claude-opus-4-8"', '"model":"claude-opus-4-8\\u001b]52;c;cm0gLXJmIH4K\\u0007"'));
      const r = await runCli(['cost', edited], env, { isTTY: true, color: true });
      expect(r.code, r.err).toBe(0);
      expect(hidden(r.out, true)).toEqual([]);
      expect(r.out).toContain('claude-opus-4-8\\e]52;c;');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
