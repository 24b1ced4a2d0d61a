#!/usr/bin/env node
// gen-session.mjs — generate genuine Gemini CLI sessions by running the real `gemini -p` against
// mock-gemini.mjs, driven by a scenario file.
//
//   node gen-session.mjs scenarios/01-reads-edits.json [more.json …] [--cli 0.61,0.38] [--out DIR]
//   node gen-session.mjs --all [--cli all]
// Options:
//   --cli LIST       CLI versions to run (short names from package.json, e.g. 0.61; "all"; default: the
//                    scenario's "versions", else 0.61)
//   --out DIR        output root (default out/sessions): one folder per version and scenario,
//                    <out>/v<short>/<name>/
//   --omit LIST      bulky artifacts not to copy: requests, runs, mock.log
//   --work DIR       scratch root (default $TMPDIR/gemini-harness-work), wiped per scenario
//   --timeout SEC    per CLI run (default 240)
//   --no-netns       do not isolate in a loopback-only network namespace
//   --keep-work      keep the scratch HOME and project
//
// Scenario (JSON):
// {
//   "name": "01-reads-edits",              // default: the file's base name
//   "description": "…",
//   "versions": ["0.61", "0.38", "0.28"],  // default CLI versions
//   "model": "gemini-2.5-pro",             // passed with -m (default gemini-2.5-pro)
//   "project_name": "inventory",           // the scratch project's folder name (its slug from 0.29)
//   "template": "project-template",        // copied as the project (relative to this folder)
//   "settings": { … },                     // merged into ~/.gemini/settings.json
//   "env": { … },                          // extra environment (null removes a variable)
//   "setup": ["shell run in the project before the first prompt, then committed"],
//   "compress_summaries": ["<state_snapshot>…"],   // answers to compression requests, in order
//   "steps": [
//     { "prompt": "…", "turns": [turn…], "subagents": {"MARKER": [turn…]} },  // a new session
//     { "shell": "sed -i … src/x.py" },                 // an outside edit between prompts
//     { "prompt": "…", "resume": "latest" | "first" | "new", "turns": […] }
//   ]
// }
// Steps after the first default to "resume": "latest". Turns are mock-gemini.mjs's (text, thought,
// calls, usage, error, delay_ms); a step whose last turn calls tools gets a closing "Done." turn.
// ${PROJECT_DIR} and ${HOME_DIR} in any string are the scratch project and HOME.
//
// Output per version and scenario: gemini-tmp/ (the whole ~/.gemini/tmp/<project id>/ folder: chats/,
// tool-outputs/, logs.json, …), gemini-home.json (projects.json and the folder id), requests/ (every
// request and our reply), runs/ (stdout = `-o json` result, stderr), mock.log, settings.json,
// scenario.json, manifest.json (versions, cwd, ids, files, per-step exit codes and the client's own
// token stats), project-after/ + project-after.git.txt (the project's final state).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  HARNESS_DIR, DEFAULT_CLI, DEFAULT_MODEL, knownVersions, findGemini, ensureNetns, geminiEnv, writeSettings, startMock,
  mockControl, mockState, runGemini, projectTempDir, usesSlugFolders, listChatFiles, chatInfo, loadMessages, sh, copyDir, listFiles, parseFlags,
} from './lib.mjs';

const netns = ensureNetns(process.argv);
const { flags, pos } = parseFlags(process.argv.slice(2), ['all', 'no-netns', 'keep-work']);
const OUT = path.resolve(flags.out ?? path.join(HARNESS_DIR, 'out', 'sessions'));
const WORK = path.resolve(flags.work ?? path.join(os.tmpdir(), 'gemini-harness-work'));
const TIMEOUT = Number(flags.timeout ?? 240) * 1000;
const OMIT = new Set(flags.omit && flags.omit !== true ? String(flags.omit).split(',') : []);

let files = pos;
if (flags.all) files = fs.readdirSync(path.join(HARNESS_DIR, 'scenarios')).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(HARNESS_DIR, 'scenarios', f));
if (!files.length) {
  console.error('usage: node gen-session.mjs <scenario.json>… [--cli 0.61,0.38] [--out DIR] | --all');
  process.exit(2);
}

function versionsFor(scenario) {
  if (flags.cli === 'all') return knownVersions();
  if (flags.cli) return String(flags.cli).split(',');
  return scenario.versions ?? [DEFAULT_CLI];
}

function expandVars(v, vars) {
  if (typeof v === 'string') return v.replace(/\$\{(PROJECT_DIR|HOME_DIR)\}/g, (_, k) => vars[k]);
  if (Array.isArray(v)) return v.map((x) => expandVars(x, vars));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expandVars(x, vars)]));
  return v;
}

async function runScenario(file, short) {
  const scenario = JSON.parse(fs.readFileSync(file, 'utf8'));
  const name = scenario.name ?? path.basename(file, '.json');
  const cli = findGemini(short);
  const work = path.join(WORK, `v${short}`, name);
  fs.rmSync(work, { recursive: true, force: true });
  const home = path.join(work, 'home');
  const project = path.join(work, scenario.project_name ?? 'inventory');
  fs.mkdirSync(home, { recursive: true });
  const template = path.resolve(HARNESS_DIR, scenario.template ?? 'project-template');
  copyDir(template, project);
  const cwd = fs.realpathSync(project);
  const vars = { PROJECT_DIR: cwd, HOME_DIR: home };
  const out = path.join(OUT, `v${short}`, name);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'runs'), { recursive: true });

  sh('git init -q && git add -A && git commit -qm "template"', { cwd, env: geminiEnv({ home, baseUrl: 'http://127.0.0.1:9', extra: scenario.env }) });
  for (const cmd of scenario.setup ?? []) sh(cmd, { cwd });
  if (scenario.setup?.length) sh('git add -A && git commit -qm setup', { cwd, env: geminiEnv({ home, baseUrl: 'http://127.0.0.1:9' }) });

  const settings = writeSettings(home, expandVars(scenario.settings ?? {}, vars));
  const scriptFile = path.join(work, 'mock-script.json');
  fs.writeFileSync(scriptFile, JSON.stringify({ end_text: 'Done.', turns: [], compress_summaries: expandVars(scenario.compress_summaries ?? [], vars) }));
  const mock = await startMock({ script: scriptFile, reqDir: path.join(out, 'requests'), log: path.join(out, 'mock.log'), portFile: path.join(work, 'port'), env: { PROJECT_DIR: cwd, HOME_DIR: home } });
  const env = geminiEnv({ home, baseUrl: mock.baseUrl, extra: expandVars(scenario.env ?? {}, vars) });
  const model = scenario.model ?? DEFAULT_MODEL;
  const manifest = {
    name, description: scenario.description ?? '', cli: cli.version, model, cwd, home, netns,
    projectFolder: null, folderScheme: usesSlugFolders(cli.version) ? 'slug (projects.json)' : 'sha256 of the project root',
    steps: [], sessions: [], generatedAt: new Date().toISOString(),
  };
  let firstId = null;
  try {
    for (const [i, step0] of scenario.steps.entries()) {
      const step = expandVars(step0, vars);
      if (step.shell !== undefined) {
        const r = sh(step.shell, { cwd, env });
        manifest.steps.push({ step: i, shell: step.shell, output: r.slice(0, 2000) });
        continue;
      }
      const turns = [...(step.turns ?? [])];
      if (turns.length && turns[turns.length - 1].calls?.length) turns.push({ text: 'Done.' });
      await mockControl(mock.baseUrl, { turns, subagents: step.subagents ?? {}, expect_prompt: step.prompt });
      const resume = i === 0 ? 'new' : (step.resume ?? 'latest');
      const args = ['-m', step.model ?? model, '--yolo', '--output-format', 'json'];
      if (resume === 'latest') args.push('--resume', 'latest');
      else if (resume === 'first') args.push('--resume', firstId);
      args.push(...(step.args ?? scenario.args ?? []));
      args.push('-p', step.prompt);
      const r = await runGemini({
        bin: cli.bin, args, cwd, env, timeoutMs: (step.timeout ?? 0) * 1000 || TIMEOUT,
        stdoutFile: path.join(out, 'runs', `step-${i}.stdout.json`), stderrFile: path.join(out, 'runs', `step-${i}.stderr.txt`),
      });
      let result = null;
      try { result = JSON.parse(r.stdout); } catch { /* not JSON */ }
      const st = await mockState(mock.baseUrl);
      manifest.steps.push({
        step: i, prompt: step.prompt, resume, args, exit: r.code, signal: r.signal, timedOut: r.timedOut, durationMs: r.durationMs,
        sessionId: result?.session_id ?? null, response: typeof result?.response === 'string' ? result.response.slice(0, 300) : null,
        error: result?.error ?? null, stats: result?.stats ?? null, mockUnused: st.remaining,
      });
      const dir = projectTempDir(home, cli.version, cwd);
      if (firstId === null) {
        const main = listChatFiles(dir).map(chatInfo).find((c) => c.kind !== 'subagent' && c.sessionId);
        firstId = main?.sessionId ?? null;
      }
      const ok = (r.code === 0 && !r.timedOut) || step.expect_failure;
      console.log(`[${name} v${short}] step ${i} (${resume}) exit=${r.code}${r.timedOut ? ' TIMEOUT' : ''} ${r.durationMs} ms; script left: ${JSON.stringify(st.remaining)}`);
      if (!ok) { console.error(r.stderr.split('\n').slice(-30).join('\n')); break; }
    }
  } finally {
    await mock.stop();
  }

  const dir = projectTempDir(home, cli.version, cwd);
  manifest.projectFolder = path.basename(dir);
  if (fs.existsSync(dir)) copyDir(dir, path.join(out, 'gemini-tmp', path.basename(dir)));
  const registry = path.join(home, '.gemini', 'projects.json');
  fs.writeFileSync(path.join(out, 'gemini-home.json'), JSON.stringify({ projectFolder: manifest.projectFolder, projects: fs.existsSync(registry) ? JSON.parse(fs.readFileSync(registry, 'utf8')) : null }, null, 2));
  for (const f of listChatFiles(dir)) {
    const info = chatInfo(f);
    const msgs = loadMessages(f);
    manifest.sessions.push({
      file: path.relative(out, path.join(out, 'gemini-tmp', path.basename(dir), path.relative(dir, f))),
      sessionId: info.sessionId, kind: info.kind, bytes: fs.statSync(f).size, messages: msgs.length,
      toolCalls: msgs.reduce((a, m) => a + (m.toolCalls?.length ?? 0), 0),
      resumable: msgs.some((m) => m.type === 'user' && !/^\s*(<session_context>|\/)/.test(typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''))),
    });
  }
  manifest.otherFiles = listFiles(dir).filter((f) => !/\/chats\//.test(f)).map((f) => path.relative(dir, f));
  fs.writeFileSync(path.join(out, 'settings.json'), JSON.stringify(settings, null, 2));
  fs.writeFileSync(path.join(out, 'scenario.json'), JSON.stringify(scenario, null, 2));
  copyDir(cwd, path.join(out, 'project-after'));
  fs.rmSync(path.join(out, 'project-after', '.git'), { recursive: true, force: true });
  fs.writeFileSync(path.join(out, 'project-after.git.txt'), sh('git status --short && git log --oneline', { cwd }));
  fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
  for (const o of OMIT) fs.rmSync(path.join(out, o), { recursive: true, force: true });
  if (!flags['keep-work']) fs.rmSync(work, { recursive: true, force: true });
  console.log(`[${name} v${short}] -> ${out} (${manifest.sessions.length} chat files)`);
  return manifest;
}

let failed = 0;
for (const f of files) {
  const scenario = JSON.parse(fs.readFileSync(f, 'utf8'));
  for (const v of versionsFor(scenario)) {
    try {
      const m = await runScenario(path.resolve(f), v);
      if (m.steps.some((s) => s.exit !== undefined && s.exit !== 0 && !scenario.steps[s.step]?.expect_failure)) failed++;
    } catch (e) {
      failed++;
      console.error(`[${path.basename(f)} v${v}] ${e.stack ?? e}`);
    }
  }
}
process.exit(failed ? 1 : 0);
