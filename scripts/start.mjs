#!/usr/bin/env node
// `npm start`: the desktop app. It needs the Electron binary, which `install-electron` downloads on a
// machine with network. Where that cannot happen (offline, or a remote host), the same app is served
// to a browser instead (`glassbox ui`), so `npm start` always opens Glassbox.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const forceBrowser = args.includes('--browser');

function electronBinaryPresent() {
  try {
    const dir = dirname(createRequire(join(root, 'apps/desktop/package.json')).resolve('electron/package.json'));
    return existsSync(join(dir, 'path.txt')) || Boolean(process.env.ELECTRON_OVERRIDE_DIST_PATH);
  } catch {
    return false;
  }
}

/**
 * Downloads the Electron binary quietly; on failure, one line saying why (never the installer's stack
 * or npm's error block, which read as a crash).
 */
function installElectron() {
  const r = spawnSync('npx', ['--no-install', 'install-electron'], { cwd: join(root, 'apps/desktop'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status === 0 && electronBinaryPresent()) return null;
  const said = `${r.stderr ?? ''}\n${r.stdout ?? ''}`;
  if (/fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|getaddrinfo|network/i.test(said)) return 'it cannot be downloaded without a network connection';
  if (/EACCES|EPERM/.test(said)) return 'the download was not allowed to write its files';
  const first = said.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('at ') && !l.startsWith('npm '));
  return first ? `its installer said: ${first.slice(0, 160)}` : 'its installer failed';
}

if (!forceBrowser) {
  const why = electronBinaryPresent() ? null : installElectron();
  if (why === null) {
    const r = spawnSync('npm', ['run', 'start', '-w', '@glassbox/desktop'], { cwd: root, stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
  console.error(`glassbox: the desktop app needs Electron, and ${why}; opening Glassbox in your browser instead (glassbox ui).`);
}
const ui = spawnSync(process.execPath, [join(root, 'apps/cli/bin/glassbox.mjs'), 'ui', ...args.filter((a) => a !== '--browser')], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(ui.status ?? 1);
