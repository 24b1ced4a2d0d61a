// lib.mjs — shared helpers of the Gemini CLI harness (Node built-ins only).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HARNESS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_CLI = '0.61';
export const DEFAULT_MODEL = 'gemini-2.5-pro';

// ------------------------------------------------------------------ the CLI, per version
// package.json installs each pinned version under an alias: node_modules/gemini-cli-<short>.
export function knownVersions() {
  const deps = JSON.parse(fs.readFileSync(path.join(HARNESS_DIR, 'package.json'), 'utf8')).dependencies ?? {};
  return Object.keys(deps).filter((k) => k.startsWith('gemini-cli-')).map((k) => k.slice('gemini-cli-'.length));
}
export function findGemini(short = DEFAULT_CLI) {
  if (process.env.GEMINI_BIN) return { bin: process.env.GEMINI_BIN, short, version: cliVersion(process.env.GEMINI_BIN) };
  const dir = path.join(HARNESS_DIR, 'node_modules', `gemini-cli-${short}`);
  const pkgFile = path.join(dir, 'package.json');
  if (!fs.existsSync(pkgFile)) throw new Error(`Gemini CLI ${short} is not installed (no ${pkgFile}); run "npm install" in ${HARNESS_DIR} (known: ${knownVersions().join(', ')})`);
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.gemini;
  return { bin: path.join(dir, rel), short, version: pkg.version };
}
export function cliVersion(bin) {
  const r = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: os.tmpdir() } });
  return (r.stdout || '').trim();
}
function versionTuple(v) {
  return String(v).split(/[.-]/).slice(0, 3).map((x) => Number(x) || 0);
}
export function versionAtLeast(v, min) {
  const a = versionTuple(v);
  const b = versionTuple(min);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

// ------------------------------------------------------------------ where the CLI keeps a project
// Up to 0.28 the project's folder under ~/.gemini/tmp is the SHA-256 (hex) of the project root; from
// 0.29 a short slug of the folder's name, recorded in ~/.gemini/projects.json and in a `.project_root`
// marker inside the folder (the CLI also finds a slug folder by its marker alone).
export function projectHash(root) {
  return crypto.createHash('sha256').update(root).digest('hex');
}
export function slugify(name) {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'project';
}
export function usesSlugFolders(version) {
  return versionAtLeast(version, '0.29.0');
}
export function projectTempDir(home, version, root) {
  const id = usesSlugFolders(version) ? slugFor(home, root) : projectHash(root);
  return path.join(home, '.gemini', 'tmp', id);
}
/** The slug the client gave (or will give) this root: from projects.json, else the folder's name. */
function slugFor(home, root) {
  try {
    const reg = JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'projects.json'), 'utf8'));
    if (reg.projects?.[root]) return reg.projects[root];
  } catch { /* none yet */ }
  return slugify(path.basename(root));
}
/** Makes a project folder the client will pick for `root` (slug era: registry + marker). */
export function prepareProjectDir(home, version, root) {
  const dir = projectTempDir(home, version, root);
  fs.mkdirSync(path.join(dir, 'chats'), { recursive: true });
  if (usesSlugFolders(version)) {
    const id = path.basename(dir);
    fs.writeFileSync(path.join(dir, '.project_root'), root);
    const hist = path.join(home, '.gemini', 'history', id);
    fs.mkdirSync(hist, { recursive: true });
    fs.writeFileSync(path.join(hist, '.project_root'), root);
    fs.writeFileSync(path.join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [root]: id } }, null, 2));
  }
  return dir;
}

// ------------------------------------------------------------------ network isolation
// Re-exec the current script in a fresh network namespace that has only loopback, so neither the mock
// nor the CLI can reach anything else. Opt out with --no-netns or GEMINI_HARNESS_NETNS=0.
export function ensureNetns(argv) {
  if (process.env.GEMINI_HARNESS_IN_NETNS === '1') return { isolated: true };
  if (argv.includes('--no-netns') || process.env.GEMINI_HARNESS_NETNS === '0') return { isolated: false, reason: 'disabled by --no-netns / GEMINI_HARNESS_NETNS=0' };
  let asUser = [];
  if (spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status !== 0) {
    if (spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore' }).status !== 0) {
      process.stderr.write('[gemini-harness] WARNING: cannot create a network namespace (unshare -n failed); running WITHOUT network isolation.\n');
      return { isolated: false, reason: 'unshare failed' };
    }
    asUser = ['-r'];
  }
  const inner = 'ip link set lo up 2>/dev/null || true; exec "$0" "$@"';
  const r = spawnSync('unshare', [...asUser, '-n', '--', 'sh', '-c', inner, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, GEMINI_HARNESS_IN_NETNS: '1' },
  });
  process.exit(r.status ?? 1);
}

// ------------------------------------------------------------------ environment and settings
// A clean environment: nothing from the caller leaks in except PATH and locale basics.
export function geminiEnv({ home, baseUrl, extra = {} }) {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME'];
  const env = {};
  for (const k of keep) if (process.env[k]) env[k] = process.env[k];
  Object.assign(env, {
    HOME: home,
    TMPDIR: path.join(home, 'tmp'),
    TERM: 'dumb',
    SHELL: '/bin/bash',
    GEMINI_API_KEY: 'mock-key-for-the-local-gemini-mock',
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    // -p in a folder the person never trusted: the CLI refuses unless told (0.5x+)
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // no sandbox container, no IDE companion, no browser
    GEMINI_SANDBOX: 'false',
    NO_BROWSER: 'true',
    CI: '',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Harness', GIT_AUTHOR_EMAIL: 'harness@example.invalid',
    GIT_COMMITTER_NAME: 'Harness', GIT_COMMITTER_EMAIL: 'harness@example.invalid',
  });
  delete env.CI;
  for (const [k, v] of Object.entries(extra)) {
    if (v === null || v === undefined) delete env[k];
    else env[k] = String(v);
  }
  fs.mkdirSync(env.TMPDIR, { recursive: true });
  return env;
}

/** The user settings every run gets: no telemetry, no update check, API-key auth. */
export function baseSettings() {
  return {
    general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    ide: { enabled: false },
  };
}
function merge(a, b) {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return b ?? a;
  const out = { ...(a ?? {}) };
  for (const [k, v] of Object.entries(b)) out[k] = v && typeof v === 'object' && !Array.isArray(v) ? merge(out[k], v) : v;
  return out;
}
export function writeSettings(home, extra = {}) {
  const file = path.join(home, '.gemini', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const settings = merge(baseSettings(), extra);
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  return settings;
}

// ------------------------------------------------------------------ mock server
export async function startMock({ script, reqDir, log, mode, reply, env = {}, portFile }) {
  const args = [path.join(HARNESS_DIR, 'mock-gemini.mjs'), '--port', '0', '--port-file', portFile];
  if (script) args.push('--script', script);
  if (reqDir) args.push('--req-dir', reqDir);
  if (log) args.push('--log', log);
  if (mode) args.push('--mode', mode);
  if (reply) args.push('--reply', reply);
  try { fs.unlinkSync(portFile); } catch { /* none */ }
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  const exited = new Promise((r) => child.once('exit', r));
  const t0 = Date.now();
  while (!(fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim())) {
    if (child.exitCode !== null) throw new Error(`mock exited early with ${child.exitCode}`);
    if (Date.now() - t0 > 10000) throw new Error('mock did not start in 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = Number(fs.readFileSync(portFile, 'utf8').trim());
  return {
    port,
    pid: child.pid,
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      process.kill(child.pid, 'SIGTERM');
      const t = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } }, 3000);
      await exited;
      clearTimeout(t);
    },
  };
}
export async function mockControl(baseUrl, body) {
  const r = await fetch(`${baseUrl}/__mock/queue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.json();
}
export async function mockState(baseUrl) {
  return (await fetch(`${baseUrl}/__mock/state`)).json();
}

// ------------------------------------------------------------------ run the CLI
// In its own process group, so a timeout ends the CLI and every shell it started.
export function runGemini({ bin, args, cwd, env, timeoutMs = 180000, stdoutFile, stderrFile }) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
      setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 3000).unref();
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (stdoutFile) fs.writeFileSync(stdoutFile, stdout);
      if (stderrFile) fs.writeFileSync(stderrFile, stderr);
      resolve({ code, signal, timedOut, stdout, stderr, durationMs: Date.now() - t0 });
    });
  });
}

// ------------------------------------------------------------------ session files
/** Every chat file under a project's folder: main sessions in chats/, subagents in chats/<parent>/. */
export function listChatFiles(projectDir) {
  const chats = path.join(projectDir, 'chats');
  return listFiles(chats).filter((f) => /\.jsonl?$/.test(f));
}
/** The session id and kind a chat file declares (first record of a log, or the document). */
export function chatInfo(file) {
  const text = fs.readFileSync(file, 'utf8');
  let meta = null;
  if (file.endsWith('.jsonl')) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try { const r = JSON.parse(line); if (r.sessionId) { meta = r; break; } } catch { /* torn */ }
    }
  } else {
    try { meta = JSON.parse(text); } catch { /* torn */ }
  }
  return { file, sessionId: meta?.sessionId ?? null, kind: meta?.kind ?? null, startTime: meta?.startTime ?? null };
}
/** The messages of a chat file as the client loads them (the last record per id wins; rewinds, full replaces). */
export function loadMessages(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!file.endsWith('.jsonl')) return JSON.parse(text).messages ?? [];
  let map = new Map();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let r;
    try { r = JSON.parse(line); } catch { continue; }
    if (typeof r.$rewindTo === 'string') {
      const ids = [...map.keys()];
      const at = ids.indexOf(r.$rewindTo);
      if (at === -1) map = new Map();
      else for (const id of ids.slice(at)) map.delete(id);
    } else if (typeof r.id === 'string') map.set(r.id, r);
    else if (r.$set && Array.isArray(r.$set.messages)) {
      map = new Map();
      for (const m of r.$set.messages) if (typeof m?.id === 'string') map.set(m.id, m);
    } else if (r.sessionId && Array.isArray(r.messages)) for (const m of r.messages) if (typeof m?.id === 'string') map.set(m.id, m);
  }
  return [...map.values()];
}

// ------------------------------------------------------------------ misc
export function sh(cmd, opts = {}) {
  const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`command failed (${r.status}): ${cmd}\n${r.stderr}`);
  return r.stdout;
}
export function copyDir(src, dst) {
  fs.mkdirSync(dst, { recursive: true });
  fs.cpSync(src, dst, { recursive: true });
}
export function listFiles(dir) {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out.sort();
}
export function parseFlags(argv, booleans = []) {
  const flags = {};
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) flags[name] = a.slice(eq + 1);
      else if (booleans.includes(name)) flags[name] = true;
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
      else flags[name] = true;
    } else pos.push(a);
  }
  return { flags, pos };
}
