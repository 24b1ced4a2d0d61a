#!/usr/bin/env node
// The proof that an elided fork's agent gets its middle back (docs/elision.md): the real Claude Code,
// offline against the harness's mock API, resumes a fork with `glassbox mcp` configured as an MCP
// server; the scripted model calls `recall` with the marker's ref, and this checks that the tool
// result the client sends back is exactly the archived middle (sha-256 equal) and that the client
// recorded the call and its result in the transcript like any MCP call.
//
//   GLASSBOX_CC_HARNESS=<cc-harness> node scripts/compat/elision-recall.mjs --fork <fork.jsonl> --archive <dir>
//
// The fork must have been written by `glassbox clean --classes …,elided --fork` with that archive.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const harness = process.env.GLASSBOX_CC_HARNESS;
if (!harness) {
  console.log('skipped: set GLASSBOX_CC_HARNESS to a cc-harness folder with its dependencies installed');
  process.exit(0);
}
const lib = await import(pathToFileURL(path.join(path.resolve(harness), 'lib.mjs')).href);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(REPO, 'apps/cli/bin/glassbox.mjs');

const { flags } = lib.parseFlags(process.argv.slice(2));
const forkFile = path.resolve(flags.fork ?? '');
const archive = path.resolve(flags.archive ?? '');
if (!fs.existsSync(forkFile) || !fs.existsSync(archive)) {
  console.error('usage: elision-recall.mjs --fork <fork.jsonl> --archive <archive dir>');
  process.exit(2);
}
const forkId = path.basename(forkFile, '.jsonl');
const manifest = JSON.parse(fs.readFileSync(path.join(archive, 'forks', `${forkId}.json`), 'utf8'));
const elided = manifest.actions.filter((a) => a.elision);
if (elided.length === 0) throw new Error(`fork ${forkId} elided nothing`);
// The largest elision whose middle comes back in one page (recall pages at 24,000 characters, below
// the size at which the client keeps a tool result out of the context): its marker's ref, as the model reads it.
const fits = elided.filter((a) => a.elision.bytes <= 24_000).sort((a, b) => b.elision.bytes - a.elision.bytes);
const target = fits[0] ?? elided.sort((a, b) => a.elision.bytes - b.elision.bytes)[0];
const ref = /recall ([0-9a-f]{12,64}) …\]/.exec(target.tombstone)?.[1];
if (!ref) throw new Error('no marker in the elided text');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'glassbox-recall-'));
const home = path.join(work, 'home');
const cwd = path.join(work, 'scratch');
fs.mkdirSync(cwd, { recursive: true });
const realCwd = fs.realpathSync(cwd);
const projDir = path.join(home, '.claude', 'projects', lib.projectSlug(realCwd));
fs.mkdirSync(projDir, { recursive: true });
const installed = path.join(projDir, `${forkId}.jsonl`);
const before = fs.readFileSync(forkFile, 'utf8');
fs.writeFileSync(installed, before);
const side = forkFile.replace(/\.jsonl$/, '');
if (fs.existsSync(side)) fs.cpSync(side, path.join(projDir, forkId), { recursive: true });

const mcpConfig = path.join(work, 'mcp.json');
fs.writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { 'glassbox-recall': { type: 'stdio', command: process.execPath, args: [BIN, 'mcp', forkId, '--archive', archive, '--send-content-to-model-provider'] } } }));
const script = path.join(work, 'script.json');
fs.writeFileSync(script, JSON.stringify({ end_text: 'Recalled.', turns: [{ text: 'Reading the elided middle back.', tool_uses: [{ name: 'mcp__glassbox-recall__recall', input: { ref, limit: 2000 } }] }, { text: 'Recalled.' }] }));
const reqDir = path.join(work, 'requests');
const mock = await lib.startMock({ script, reqDir, log: path.join(work, 'mock.log'), mode: 'script', portFile: path.join(work, 'port') });
const env = lib.claudeEnv({ home, baseUrl: mock.baseUrl });
let run;
try {
  run = await lib.runClaude({
    bin: lib.findClaude(),
    args: ['--resume', forkId, '-p', 'Read back the elided middle.', '--mcp-config', mcpConfig, '--output-format', 'json', '--dangerously-skip-permissions'],
    cwd: realCwd,
    env,
    timeoutMs: 180_000,
  });
} finally {
  await mock.stop();
}
const version = lib.claudeVersion(lib.findClaude());
const requests = lib.listFiles(reqDir).filter((f) => f.endsWith('-main.json')).sort().map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
// The request after the tool call carries its result, as the client sends it to the model: the one
// tool_result of a call the fork did not already hold (2.1.33x adds a system message after it).
let sent = null;
for (const r of requests.slice(1)) {
  for (const m of r.body?.messages ?? []) {
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type !== 'tool_result' || !b.tool_use_id || before.includes(b.tool_use_id)) continue;
      const text = typeof b.content === 'string' ? b.content : (b.content ?? []).filter((p) => p.type === 'text').map((p) => p.text).join('');
      sent = { id: b.tool_use_id, text, isError: b.is_error === true };
    }
  }
}
const sha = (t) => createHash('sha256').update(t, 'utf8').digest('hex');
const after = fs.readFileSync(installed, 'utf8');
const appended = after.startsWith(before) ? after.slice(before.length).split('\n').filter(Boolean).map((l) => JSON.parse(l)) : null;
const blocks = (r) => (Array.isArray(r.message?.content) ? r.message.content : []);
const recordedUse = appended?.some((r) => r.type === 'assistant' && blocks(r).some((b) => b.type === 'tool_use' && b.name === 'mcp__glassbox-recall__recall')) ?? false;
const recordedResult = appended?.some((r) => r.type === 'user' && blocks(r).some((b) => b.type === 'tool_result' && b.tool_use_id === sent?.id)) ?? false;
const verdict = {
  client: version,
  exit_code: run.code,
  ref,
  expected_sha256: target.elision.sha256,
  received_sha256: sent ? sha(sent.text) : null,
  hash_equal: sent !== null && sha(sent.text) === target.elision.sha256,
  tool_result_is_error: sent?.isError ?? null,
  prefix_preserved: appended !== null,
  recorded_tool_use: recordedUse,
  recorded_tool_result: recordedResult,
  main_requests: requests.length,
  received_chars: sent?.text.length ?? null,
};
if (!verdict.hash_equal && sent) {
  verdict.received_start = sent.text.slice(0, 200);
  verdict.received_end = sent.text.slice(-300);
}
console.log(JSON.stringify(verdict, null, 2));
const passed = verdict.hash_equal && recordedUse && recordedResult && verdict.exit_code === 0;
if (process.env.GLASSBOX_COMPAT_KEEP) console.error(`kept ${work}`);
else fs.rmSync(work, { recursive: true, force: true });
process.exit(passed ? 0 : 1);
