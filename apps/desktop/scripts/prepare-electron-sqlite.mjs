// `npm start` step (networked machines only; never run by npm ci or the tests): builds a second copy of
// better-sqlite3 for Electron's ABI into apps/desktop/native/, leaving node_modules' Node build alone,
// so `npm test` and the CLI keep working (docs/toolchain.md). The engine process opens the database with
// that binary through better-sqlite3's `nativeBinding` option (src/main/index.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const desktop = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')).version;
const target = join(desktop, 'native', 'better-sqlite3');
const stamp = join(target, '.glassbox-stamp');
const wanted = `better-sqlite3@${sqliteVersion} electron@${electronVersion}`;

if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted && existsSync(join(target, 'build/Release/better_sqlite3.node'))) {
  console.log(`native/better-sqlite3 is already built for Electron ${electronVersion}`);
  process.exit(0);
}
rmSync(target, { recursive: true, force: true });
mkdirSync(dirname(target), { recursive: true });
cpSync(sqliteDir, target, { recursive: true, filter: (src) => !src.includes(`${sqliteDir}/build`) });

// npm exports npm_config_nodedir (=/usr on some machines), which would make node-gyp build against
// Node's headers while claiming Electron's target (docs/toolchain.md): drop every npm_config_* here.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_config_')));
const gyp = join(dirname(require.resolve('node-gyp/package.json')), 'bin', 'node-gyp.js');
console.log(`building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} into ${target} …`);
const r = spawnSync(process.execPath, [gyp, 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'], {
  cwd: target,
  env,
  stdio: 'inherit',
});
if (r.status !== 0) {
  rmSync(target, { recursive: true, force: true });
  console.error('Could not build better-sqlite3 for Electron (this needs network access to the Electron headers). The Node build in node_modules is untouched.');
  process.exit(1);
}
writeFileSync(stamp, wanted);
console.log('done');
