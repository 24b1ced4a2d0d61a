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

if (!forceBrowser) {
  const r = spawnSync('npm', ['run', 'start', '-w', '@glassbox/desktop'], { cwd: root, stdio: 'inherit' });
  if (r.status === 0) process.exit(0);
  if (electronBinaryPresent()) process.exit(r.status ?? 1);
  console.error('\nglassbox: the Electron binary could not be installed here; opening Glassbox in your browser instead.\n');
}
const ui = spawnSync(process.execPath, [join(root, 'apps/cli/bin/glassbox.mjs'), 'ui', ...args.filter((a) => a !== '--browser')], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(ui.status ?? 1);
