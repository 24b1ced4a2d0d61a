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
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

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
// The largest elision: its marker's ref, as the model reads it. A middle over one page (recall pages
// at 24,000 characters, below the size at which the client keeps a tool result out of the context)
// is read page by page, as an agent does from the offset each page names.
const target = [...elided].sort((a, b) => b.elision.bytes - a.elision.bytes)[0];
const ref = /recall ([0-9a-f]{12,64}) …\]/.exec(target.tombstone)?.[1];
if (!ref) throw new Error('no marker in the elided text');
const serverArgs = [BIN, 'mcp', forkId, '--archive', archive, '--send-content-to-model-provider'];
const offsets = await pageOffsets(serverArgs, ref);

/** The offsets of the pages of `ref`, asked of the server itself (each page names where the next starts). */
async function pageOffsets(args, wanted) {
  const server = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: server.stdout });
  const replies = new Map();
  const waiting = new Map();
  lines.on('line', (l) => {
    const m = JSON.parse(l);
    if (waiting.has(m.id)) waiting.get(m.id)(m);
    else replies.set(m.id, m);
  });
  let id = 0;
  const call = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'elision-recall', version: '1' } });
  const out = [0];
  for (;;) {
    const r = await call('tools/call', { name: 'recall', arguments: { ref: wanted, offset: out[out.length - 1], limit: 2000 } });
    const next = /the rest from offset (\d+)\]$/.exec(r.result?.content?.at(-1)?.text ?? '');
    if (!next) break;
    out.push(Number(next[1]));
  }
  server.stdin.end();
  return out;
}

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
fs.writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { 'glassbox-recall': { type: 'stdio', command: process.execPath, args: serverArgs } } }));
const script = path.join(work, 'script.json');
// The client does not wait for an MCP server before its first request (a slow start — tsx, a busy
// machine — leaves the tool out of it): the model first waits for the server, as the client's own
// WaitForMcpServers tool is for, then recalls. A client without that tool answers it with an error
// and the recall still follows.
const wait = { text: 'Waiting for the recall server.', tool_uses: [{ name: 'WaitForMcpServers', input: { servers: ['glassbox-recall'] } }] };
const pages = offsets.map((offset) => ({ text: 'Reading the elided middle back.', tool_uses: [{ name: 'mcp__glassbox-recall__recall', input: offset === 0 ? { ref, limit: 2000 } : { ref, offset, limit: 2000 } }] }));
fs.writeFileSync(script, JSON.stringify({ end_text: 'Recalled.', turns: [wait, ...pages, { text: 'Recalled.' }] }));
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
// The ids of the model's recall calls, from the mock's replies as the client recorded them.
const recallIds = new Set();
for (const r of requests) for (const m of r.body?.messages ?? []) for (const b of Array.isArray(m.content) ? m.content : []) if (b.type === 'tool_use' && b.name === 'mcp__glassbox-recall__recall') recallIds.add(b.id);
// Each recall's result as the client sent it to the model, in call order: the page's text, without
// the line the server adds to a page that is not the whole ("[glassbox recall …: lines a-b of n…]").
const PAGE_LINE = /^\[glassbox recall [0-9a-f]+: lines \d+-\d+ of \d+(; the rest from offset \d+)?\]$/;
const results = new Map();
for (const r of requests.slice(1)) {
  for (const m of r.body?.messages ?? []) {
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type !== 'tool_result' || !b.tool_use_id || before.includes(b.tool_use_id) || !recallIds.has(b.tool_use_id)) continue;
      const parts = typeof b.content === 'string' ? [b.content.replace(/\n?\[glassbox recall [^\n]*\]$/, '')] : (b.content ?? []).filter((p) => p.type === 'text' && !PAGE_LINE.test(p.text)).map((p) => p.text);
      results.set(b.tool_use_id, { id: b.tool_use_id, text: parts.join(''), isError: b.is_error === true });
    }
  }
}
const order = [...recallIds];
const got = order.map((i) => results.get(i)).filter(Boolean);
const sent = got.length === 0 ? null : { id: got.at(-1).id, text: got.map((g) => g.text).join(''), isError: got.some((g) => g.isError) };
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
  pages: offsets.length,
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
