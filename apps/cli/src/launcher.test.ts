import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseEntry } from '../bin/entry.mjs';

const REPO = resolve(import.meta.dirname, '../../..');
const CLI = join(REPO, 'apps/cli');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const temp = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `glassbox-${name}-`));
  roots.push(dir);
  return dir;
};

/** A CLI folder laid out as the build leaves it: one source, and a bundle whose manifest names it. */
function cliFolder(): { dir: string; source: string } {
  const dir = temp('launcher');
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'dist'));
  const source = join(dir, 'src/main.ts');
  writeFileSync(source, 'export {};\n');
  writeFileSync(join(dir, 'dist/main.mjs'), 'export {};\n');
  const builtAt = statSync(source).mtimeMs + 1000;
  writeFileSync(join(dir, 'dist/inputs.json'), JSON.stringify({ builtAt, inputs: ['../src/main.ts'] }));
  return { dir, source };
}

describe('the launcher', () => {
  it('runs the bundle when it is there and current', () => {
    const { dir } = cliFolder();
    expect(chooseEntry(dir, {})).toEqual({ kind: 'bundle', path: join(dir, 'dist/main.mjs') });
  });

  it('falls back to the sources when there is no bundle, a source changed since, or it is asked to', () => {
    const none = temp('launcher-none');
    expect(chooseEntry(none, {})).toMatchObject({ kind: 'source', path: join(none, 'src/main.ts'), why: 'no bundle' });

    const { dir } = cliFolder();
    expect(chooseEntry(dir, { GLASSBOX_FROM_SOURCE: '1' })).toMatchObject({ kind: 'source' });

    const edited = cliFolder();
    const later = new Date(Date.now() + 60_000);
    utimesSync(edited.source, later, later);
    expect(chooseEntry(edited.dir, {})).toMatchObject({ kind: 'source', why: '../src/main.ts changed since the bundle was built' });

    const gone = cliFolder();
    rmSync(gone.source);
    expect(chooseEntry(gone.dir, {})).toMatchObject({ kind: 'source', why: '../src/main.ts is gone' });
  });
});

describe('the bundled CLI', () => {
  const jsonl = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((p) => p.endsWith('.jsonl') && !p.includes('subagents'))
      .map((p) => join(dir, p));
  // Real transcripts of each agent with a rebuilt window: Claude Code's generated corpus and Codex's rollouts.
  const transcripts = [
    join(REPO, 'fixtures/corpus/generated/01-superseded-reads/transcript.jsonl'),
    join(REPO, 'fixtures/corpus/generated/03-large-outputs/transcript.jsonl'),
    ...jsonl(join(REPO, 'fixtures/corpus/codex/01-shell-reads-and-patch/sessions')).slice(0, 1),
  ];

  it('gives the same `inspect --json` as the TypeScript sources', () => {
    // Built inside the CLI package, as the real one is, so its external packages resolve from node_modules.
    const out = join(CLI, `dist-test-${process.pid}`);
    roots.push(out);
    const built = spawnSync(process.execPath, [join(CLI, 'build/bundle.mjs'), '--out', out], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const data = temp('bundle-data');
    const env = { ...process.env, GLASSBOX_DATA_DIR: data, NO_COLOR: '1' };
    const viaBundle = `const { main } = await import(${JSON.stringify(pathToFileURL(join(out, 'main.mjs')).href)}); process.exitCode = await main(process.argv);`;
    expect(transcripts.length).toBe(3);
    for (const path of transcripts) {
      const args = ['inspect', '--json', path];
      const bundled = spawnSync(process.execPath, ['--input-type=module', '-e', viaBundle, 'glassbox', ...args], { encoding: 'utf8', env });
      const source = spawnSync(process.execPath, [join(CLI, 'bin/glassbox.mjs'), ...args], { encoding: 'utf8', env: { ...env, GLASSBOX_FROM_SOURCE: '1' } });
      expect(source.status, source.stderr).toBe(0);
      expect(bundled.status, bundled.stderr).toBe(0);
      // Byte for byte, but for the moment of the check each run stamps.
      const unstamped = (text: string): string => text.replace(/"checkedAt": ?"[^"]*"/g, '"checkedAt":""');
      expect(JSON.parse(bundled.stdout)).toHaveProperty('checkedAt');
      expect(unstamped(bundled.stdout)).toBe(unstamped(source.stdout));
    }
  });
});
