#!/usr/bin/env node
// resume-probe.mjs — install a Gemini CLI chat file in a fresh HOME, resume it with the real CLI
// (`gemini --resume <id> -p "reply ok"`) against the mock in record mode, and report what the CLI sent.
//
//   node resume-probe.mjs <chat file> [--cli 0.61] [--cwd DIR] [--project DIR] [--id ID|latest]
//                        [--name FILE_NAME] [--extra FILE…] [--home DIR] [--out DIR] [--prompt TEXT]
//
//   <chat file>   a session-*.json or session-*.jsonl (the original is only read)
//   --cwd         the project root to run in (default: the "cwd" of a manifest.json beside or above
//                 the file, else a fresh scratch folder); created when missing
//   --project     a folder copied into --cwd first (default: project-after/ beside the manifest)
//   --id          what to pass to --resume (default: the file's sessionId)
//   --name        the file name to install it under (default: its own name)
//   --extra       more chat files installed beside it (e.g. the original next to a fork)
//   --home        the HOME to use (wiped first; default a fresh temporary one)
//   --out         where to write verdict.json and request.json (default out/probes/<name>-<time>)
//
// Prints a JSON verdict: the CLI's exit code, whether it resumed the session (the session id it
// reports), the main request's contents (roles and part kinds), functionCall/functionResponse pairing,
// duplicated responses, and the request itself in <out>/request.json.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  HARNESS_DIR, DEFAULT_CLI, findGemini, ensureNetns, geminiEnv, writeSettings, startMock, runGemini,
  prepareProjectDir, chatInfo, copyDir, listFiles, parseFlags,
} from './lib.mjs';

/** The manifest.json of a generated session: beside the file or in a folder above it. */
export function manifestFor(file) {
  let dir = path.dirname(path.resolve(file));
  for (let i = 0; i < 8 && dir !== path.dirname(dir); i++, dir = path.dirname(dir)) {
    const m = path.join(dir, 'manifest.json');
    if (fs.existsSync(m)) return { file: m, dir, manifest: JSON.parse(fs.readFileSync(m, 'utf8')) };
  }
  return null;
}

/** Kinds of the parts of one content, for a compact view. */
function partKind(p) {
  if (p.functionCall) return `call:${p.functionCall.name}#${p.functionCall.id ?? '?'}`;
  if (p.functionResponse) return `resp:${p.functionResponse.name}#${p.functionResponse.id ?? '?'}`;
  if (p.thought) return 'thought';
  if (typeof p.text === 'string') return `text(${p.text.length})`;
  return Object.keys(p).join('+');
}
export function describeRequest(body) {
  const contents = body?.contents ?? [];
  const calls = new Map();
  const responses = new Map();
  contents.forEach((c, i) => {
    for (const p of c.parts ?? []) {
      if (p.functionCall) calls.set(p.functionCall.id, i);
      if (p.functionResponse) responses.set(p.functionResponse.id, [...(responses.get(p.functionResponse.id) ?? []), i]);
    }
  });
  const unanswered = [...calls.keys()].filter((id) => !responses.has(id));
  const orphans = [...responses.keys()].filter((id) => !calls.has(id));
  const duplicated = [...responses.entries()].filter(([, at]) => at.length > 1).map(([id]) => id);
  return {
    contents: contents.length,
    roles: contents.map((c) => c.role).join(','),
    parts: contents.map((c, i) => `${i}:${c.role}[${(c.parts ?? []).map(partKind).join(' ')}]`),
    functionCalls: calls.size,
    functionResponses: [...responses.values()].reduce((a, v) => a + v.length, 0),
    unanswered, orphans, duplicatedResponses: duplicated,
    lastUserText: (contents.at(-1)?.parts ?? []).map((p) => p.text ?? '').join('').slice(0, 200),
    bytes: Buffer.byteLength(JSON.stringify(contents)),
  };
}

/** The main requests the mock saved, in order. */
export function mainRequests(reqDir) {
  return listFiles(reqDir).filter((f) => /-main\.json$/.test(f)).map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
}

export async function resumeProbe(opts) {
  const cli = findGemini(opts.cli ?? DEFAULT_CLI);
  const file = path.resolve(opts.file);
  const info = chatInfo(file);
  const found = manifestFor(file);
  const cwd = path.resolve(opts.cwd ?? found?.manifest.cwd ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-probe-cwd-')));
  const project = opts.project ?? (found && fs.existsSync(path.join(found.dir, 'project-after')) ? path.join(found.dir, 'project-after') : null);
  if (opts.freshCwd !== false) fs.rmSync(cwd, { recursive: true, force: true });
  fs.mkdirSync(cwd, { recursive: true });
  if (project) copyDir(project, cwd);
  const home = path.resolve(opts.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-probe-home-')));
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const out = path.resolve(opts.out ?? path.join(HARNESS_DIR, 'out', 'probes', `${path.basename(file).replace(/\.jsonl?$/, '')}-${Date.now()}`));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  writeSettings(home, opts.settings ?? {});
  const realCwd = fs.realpathSync(cwd);
  const dir = prepareProjectDir(home, cli.version, realCwd);
  const installed = [];
  const install = (f, name) => {
    const dst = path.join(dir, 'chats', name ?? path.basename(f));
    fs.copyFileSync(f, dst);
    installed.push(path.relative(home, dst));
  };
  install(file, opts.name);
  for (const x of opts.extra ?? []) install(path.resolve(x));
  // Tool outputs saved beside the session (tool-outputs/session-<id>/) go with it.
  const srcTools = path.join(path.dirname(path.dirname(file)), 'tool-outputs');
  if (opts.toolOutputs !== false && fs.existsSync(srcTools)) copyDir(srcTools, path.join(dir, 'tool-outputs'));
  // e.g. fork-check lists the sessions here before the resume adds its stub file.
  const beforeResume = opts.beforeResume ? await opts.beforeResume(home, realCwd) : undefined;
  const before = new Map(listFiles(dir).map((f) => [f, fs.statSync(f).size]));

  const mock = await startMock({ reqDir: path.join(out, 'requests'), log: path.join(out, 'mock.log'), mode: 'record', reply: 'ok', portFile: path.join(out, 'port') });
  const env = geminiEnv({ home, baseUrl: mock.baseUrl });
  const id = opts.id ?? info.sessionId;
  const args = ['-m', opts.model ?? found?.manifest.model ?? 'gemini-2.5-pro', '--yolo', '--output-format', 'json', '--resume', id, '-p', opts.prompt ?? 'reply ok'];
  let r;
  try {
    r = await runGemini({ bin: cli.bin, args, cwd: realCwd, env, timeoutMs: (opts.timeout ?? 180) * 1000, stdoutFile: path.join(out, 'stdout.json'), stderrFile: path.join(out, 'stderr.txt') });
  } finally {
    await mock.stop();
  }
  let result = null;
  try { result = JSON.parse(r.stdout); } catch { /* not JSON */ }
  const mains = mainRequests(path.join(out, 'requests'));
  const first = mains[0]?.body ?? null;
  if (first) fs.writeFileSync(path.join(out, 'request.json'), JSON.stringify(first, null, 1));
  const changed = listFiles(dir).filter((f) => before.get(f) !== fs.statSync(f).size).map((f) => path.relative(dir, f));
  const verdict = {
    cli: cli.version, file, sessionId: info.sessionId, resumeArg: id, cwd: realCwd, home, installed,
    exit: r.code, timedOut: r.timedOut, resumedAs: result?.session_id ?? null,
    resumed: r.code === 0 && first !== null && (result?.session_id ?? null) === info.sessionId,
    error: result?.error ?? (r.code !== 0 ? r.stderr.split('\n').filter((l) => l.trim()).slice(-4).join(' | ') : null),
    mainRequests: mains.length,
    request: first ? describeRequest(first) : null,
    filesWritten: changed,
    chatsAfter: listFiles(path.join(dir, 'chats')).map((f) => ({ file: path.relative(dir, f), bytes: fs.statSync(f).size, ...chatInfo(f) })),
    out,
  };
  if (beforeResume !== undefined) verdict.beforeResume = beforeResume;
  fs.writeFileSync(path.join(out, 'verdict.json'), JSON.stringify(verdict, null, 2));
  if (opts.keepHome !== true && !opts.home) fs.rmSync(home, { recursive: true, force: true });
  return verdict;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureNetns(process.argv);
  const { flags, pos } = parseFlags(process.argv.slice(2), ['no-netns', 'keep-home', 'brief']);
  if (!pos[0]) {
    console.error('usage: node resume-probe.mjs <chat file> [--cli 0.61] [--cwd DIR] [--project DIR] [--id ID] [--name NAME] [--extra FILE,…] [--out DIR]');
    process.exit(2);
  }
  const v = await resumeProbe({
    file: pos[0], cli: flags.cli, cwd: flags.cwd, project: flags.project, id: flags.id, name: flags.name, home: flags.home,
    extra: flags.extra ? String(flags.extra).split(',') : [], out: flags.out, prompt: flags.prompt, keepHome: flags['keep-home'],
  });
  if (flags.brief && v.request) delete v.request.parts;
  console.log(JSON.stringify(v, null, 2));
  process.exit(v.resumed ? 0 : 1);
}

