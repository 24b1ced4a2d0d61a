#!/usr/bin/env node
// cleanup-probe.mjs — what does a later start of the real CLI do to a project's chats?
//
//   node cleanup-probe.mjs <session folder> [--cli 0.61] [--prompt TEXT] [--settings JSON]
//
// Installs the whole project folder of a generated session (its gemini-tmp/<id>/) in a fresh HOME with
// the client's default settings for session retention (untouched unless --settings says otherwise),
// starts a NEW session in the project (`gemini -p "hello"`), and reports which chat files the client
// deleted, rewrote or added, with the session id each one declared.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HARNESS_DIR, ensureNetns, parseFlags, findGemini, geminiEnv, writeSettings, startMock, runGemini, prepareProjectDir, copyDir, listFiles, chatInfo } from './lib.mjs';

ensureNetns(process.argv);
const { flags, pos } = parseFlags(process.argv.slice(2), ['no-netns']);
if (!pos[0]) { console.error('usage: node cleanup-probe.mjs <session folder> [--cli 0.61] [--prompt TEXT]'); process.exit(2); }
const dir = path.resolve(pos[0]);
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
const cli = findGemini(flags.cli ?? manifest.cli.split('.').slice(0, 2).join('.'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-cleanup-'));
const home = path.join(work, 'home');
const cwd = manifest.cwd;
fs.rmSync(cwd, { recursive: true, force: true });
copyDir(path.join(dir, 'project-after'), cwd);
writeSettings(home, flags.settings ? JSON.parse(flags.settings) : {});
const projectDir = prepareProjectDir(home, cli.version, fs.realpathSync(cwd));
copyDir(path.join(dir, 'gemini-tmp', manifest.projectFolder), projectDir);

const sha = (f) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const snapshot = () => new Map(listFiles(path.join(projectDir, 'chats')).map((f) => [path.relative(projectDir, f), { sha: sha(f), ...chatInfo(f) }]));
const before = snapshot();
const mock = await startMock({ mode: 'record', reply: 'hello', portFile: path.join(work, 'port'), log: path.join(work, 'mock.log'), reqDir: path.join(work, 'requests') });
let r;
try {
  r = await runGemini({ bin: cli.bin, args: ['-m', manifest.model, '--output-format', 'json', '-p', flags.prompt ?? 'hello'], cwd: fs.realpathSync(cwd), env: geminiEnv({ home, baseUrl: mock.baseUrl }), timeoutMs: 180000 });
} finally {
  await mock.stop();
}
const after = snapshot();
let newId = null;
try { newId = JSON.parse(r.stdout).session_id; } catch { /* not JSON */ }
const report = {
  cli: cli.version, session: path.relative(HARNESS_DIR, dir), exit: r.code, newSession: newId,
  deleted: [...before.keys()].filter((k) => !after.has(k)).map((k) => ({ file: k, sessionId: before.get(k).sessionId })),
  rewritten: [...before.keys()].filter((k) => after.has(k) && after.get(k).sha !== before.get(k).sha).map((k) => ({ file: k, sessionId: before.get(k).sessionId })),
  added: [...after.keys()].filter((k) => !before.has(k)).map((k) => ({ file: k, sessionId: after.get(k).sessionId })),
  kept: [...before.keys()].filter((k) => after.has(k) && after.get(k).sha === before.get(k).sha),
};
fs.rmSync(work, { recursive: true, force: true });
console.log(JSON.stringify(report, null, 2));
