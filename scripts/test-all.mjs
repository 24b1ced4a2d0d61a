#!/usr/bin/env node
// Every check the project has, in one command (`npm test`): typecheck, lint, unit and integration
// tests (vitest), then the desktop checks that exist (end-to-end in Chromium, the security scan, the
// packaging config). Ends with one line CI reads: `N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, '.test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts ?? {};

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

/** A step that is one check: it passes or fails as a whole. */
function step(label, cmd, args) {
  if (run(label, cmd, args)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
step('lint', 'npm', ['run', '--silent', 'lint']);

/** A vitest run counted test by test from its JSON report (a run that fails without failing tests counts once). */
function vitest(label, file, extraArgs) {
  const json = join(out, file);
  const ok = run(label, 'npx', ['vitest', 'run', ...extraArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`]);
  if (!existsSync(json)) {
    failed++;
    failures.push(`${label} (no report)`);
    return;
  }
  const r = JSON.parse(readFileSync(json, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  if ((r.numFailedTests ?? 0) > 0 || !ok) failures.push(label);
  if (!ok && (r.numFailedTests ?? 0) === 0) failed++;
}

vitest('vitest', 'vitest.json', []);
// The slow gates (packaging dry run, security scan, the CLI's process-level fault suite) run once here, not in every vitest run.
vitest('slow gates', 'gates.json', ['--config', 'vitest.gates.config.ts']);

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (scripts['test:e2e'] && !existsSync(chromium)) {
  // Counted, and said: the end-to-end suite needs a browser (.ci/run installs Debian's Chromium).
  console.log(`\n=== end-to-end: skipped, no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
  skipped++;
} else if (scripts['test:e2e']) {
  const e2eJson = join(out, 'e2e.json');
  const ok = run('end-to-end', 'npm', ['run', '--silent', 'test:e2e'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson, CI: process.env.CI ?? '1' });
  if (existsSync(e2eJson)) {
    const s = JSON.parse(readFileSync(e2eJson, 'utf8')).stats ?? {};
    passed += (s.expected ?? 0) + (s.flaky ?? 0);
    failed += s.unexpected ?? 0;
    skipped += s.skipped ?? 0;
    if (!ok) failures.push('end-to-end');
    if (!ok && !(s.unexpected > 0)) failed++;
  } else if (!ok) {
    failed++;
    failures.push('end-to-end (no report)');
  }
}
for (const name of ['test:security', 'test:builder']) {
  if (scripts[name]) step(name, 'npm', ['run', '--silent', name]);
}

if (failures.length > 0) console.log(`\nfailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
