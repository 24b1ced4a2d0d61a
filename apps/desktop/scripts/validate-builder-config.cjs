/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: app-builder-lib has no exports map, so it is reached by a deep require. */
// Validates electron-builder.yml against electron-builder's own schema, offline (no Electron binary needed).
// Usage: node scripts/validate-builder-config.cjs [config]   (default: the repository's electron-builder.yml)
const path = require('node:path');
const { createRequire } = require('node:module');

const req = createRequire(require.resolve('electron-builder'));
const { getConfig, validateConfiguration } = req('app-builder-lib/out/util/config/config');
const { DebugLogger } = req('builder-util');

(async () => {
  const projectDir = path.join(__dirname, '..');
  const file = process.argv[2] ?? path.join(projectDir, '../../electron-builder.yml');
  const config = await getConfig(projectDir, file, null);
  await validateConfiguration(config, new DebugLogger(false));
  const targets = ['linux', 'mac', 'win'].map((os) => `${os}: ${[].concat(config[os]?.target ?? []).map((t) => (typeof t === 'string' ? t : t.target)).join(', ')}`);
  console.log(`electron-builder config OK (appId=${config.appId}; ${targets.join('; ')})`);
})().catch((e) => {
  console.error(String(e.message ?? e));
  process.exit(1);
});
