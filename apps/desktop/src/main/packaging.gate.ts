// The packaging config and the Electronegativity gate run as tests: both work offline, without the
// Electron binary (docs/toolchain.md). Each is also shown to fail on a bad input.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const DESKTOP = join(dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = mkdtempSync(join(tmpdir(), 'glassbox-packaging-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (script: string, ...args: string[]) => spawnSync(process.execPath, [join(DESKTOP, 'scripts', script), ...args], { encoding: 'utf8', timeout: 120_000 });

describe('packaging and security gates', () => {
  it('electron-builder.yml matches electron-builder\'s schema, with Linux, macOS and Windows targets', () => {
    const r = run('validate-builder-config.cjs');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('linux: AppImage, deb; mac: dmg; win: nsis');
  });

  it('an unknown key in the builder config is refused', () => {
    const bad = join(tmp, 'bad.yml');
    writeFileSync(bad, readFileSync(join(DESKTOP, '../../electron-builder.yml'), 'utf8') + '\nnotAnOption: true\n');
    const r = run('validate-builder-config.cjs', bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("unknown property 'notAnOption'");
  });

  it('electronegativity finds nothing outside the allow-list in the app sources', () => {
    const r = run('security-scan.mjs');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain('UNEXPECTED');
  }, 120_000);

  it('electronegativity fails an insecure window', () => {
    const dir = join(tmp, 'insecure');
    spawnSync('mkdir', ['-p', dir]);
    writeFileSync(join(dir, 'main.js'), "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });\n");
    const r = run('security-scan.mjs', dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('UNEXPECTED CONTEXT_ISOLATION_JS_CHECK');
  }, 120_000);

  it('packs the built app: main, preload and renderer in app.asar, the SQLite binding unpacked, out/web left out', () => {
    // electron-builder's own packing with a stand-in Electron (a folder with a version file), no rebuild:
    // this checks the `files` globs and asarUnpack without the Electron download (docs/toolchain.md).
    const bin = (name: string) => join(DESKTOP, '../../node_modules/.bin', name);
    const build = spawnSync(bin('electron-vite'), ['build'], { cwd: DESKTOP, encoding: 'utf8', timeout: 120_000 });
    expect(build.status, build.stderr).toBe(0);
    const fake = join(tmp, 'electron-dist');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'electron'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(fake, 'electron'), 0o755);
    writeFileSync(join(fake, 'version'), '45.5.0');
    const out = join(tmp, 'release');
    const pack = spawnSync(
      bin('electron-builder'),
      ['--config', '../../electron-builder.yml', '--linux', 'dir', `-c.electronDist=${fake}`, '-c.npmRebuild=false', `-c.directories.output=${out}`],
      { cwd: DESKTOP, encoding: 'utf8', timeout: 180_000 },
    );
    expect(pack.status, pack.stdout + pack.stderr).toBe(0);
    const resources = join(out, 'linux-unpacked', 'resources');
    const asar = createRequire(import.meta.url)('@electron/asar') as { listPackage(path: string, options: object): string[] };
    const files = asar.listPackage(join(resources, 'app.asar'), {}).map((f) => f.replace(/\\/g, '/'));
    for (const f of ['/out/main/index.js', '/out/main/engine.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json']) expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('/out/web'))).toBe(false);
    expect(existsSync(join(resources, 'app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    // The sample sessions ship beside the app, with the project state that proves gone and drift.
    expect(existsSync(join(resources, 'samples/02-gone-drift-errors/manifest.json'))).toBe(true);
    expect(existsSync(join(resources, 'samples/02-gone-drift-errors/project-after'))).toBe(true);
  }, 240_000);
});
