#!/usr/bin/env node
// mock-gemini.mjs — a local, scripted mock of the Gemini API (generativelanguage v1beta), good
// enough to drive the real Gemini CLI offline. Listens on 127.0.0.1 only; Node built-ins only.
//
// Options (argv wins over env):
//   --port N        / MOCK_PORT        port (0 = a free one; default 0)
//   --port-file F   / MOCK_PORT_FILE   the chosen port is written to F once listening
//   --script F      / MOCK_SCRIPT      JSON script of model turns (below)
//   --req-dir D     / REQ_DIR          every request and our reply saved as numbered JSON files
//   --mode M        / MOCK_MODE        "script" (default with a script) or "record" (every main
//                                      request is answered with --reply text: the resume probe)
//   --reply T       / MOCK_REPLY       reply text in record mode and once the script is exhausted
//   --log F         / MOCK_LOG         one line per request (default: stderr)
//
// Endpoints: POST /<version>/models/<model>:streamGenerateContent (SSE with ?alt=sse, else a JSON
// array), :generateContent (JSON), :countTokens ({totalTokens}), :embedContent; GET models;
// anything else is saved, logged and answered 404. Control (not saved): POST /__mock/queue
// {"turns"?, "subagents"?, "expect_prompt"?, "end_text"?}, GET /__mock/state.
//
// Classification of a generate request (first match wins; see classify()):
//   1. generationConfig.responseMimeType = application/json (or a response schema): "json" — the
//      CLI's side questions (next speaker, model router, loop check, edit correction): answered with
//      an object built from the schema (next_speaker "user", the cheapest model choice, no loop).
//   2. systemInstruction or last user text carries the compression prompt (<state_snapshot>):
//      "compress" — a canned snapshot, or the next of the script's `compress_summaries`.
//   3. no function declarations offered: "aux" (session summary, title, …) — a short text.
//   4. the first user text contains a key of the script's `subagents`: "subagent:<key>".
//   5. with an expected prompt set (gen-session sets one per step): a request that neither answers
//      function calls we emitted nor carries the prompt is "aux".
//   6. otherwise "main": the next turn of the script (or --reply / end_text).
//
// Script: { "end_text": "Done.", "turns": [turn…], "subagents": {"MARKER": [turn…]},
//           "compress_summaries": ["<state_snapshot>…</state_snapshot>"] }
// A turn: { "text"?: "…", "thought"?: "…", "calls"?: [{"name": "read_file", "args": {…}}],
//           "usage"?: {promptTokenCount…} (overrides the computed usage), "finish_reason"?: "STOP",
//           "delay_ms"?: N, "error"?: {"status": 429, "message": "…"} (answers with that HTTP error) }
// "${VAR}" in any script string is replaced from the environment at load time. Big payloads:
// {"$repeat": "text", "times": N} and {"$lines": N, "prefix": "row"} anywhere in a value.
//
// Usage model (usageMetadata): promptTokenCount = chars/4 of systemInstruction + tools + contents as
// JSON; cachedContentTokenCount = the prefix of contents shared with an earlier request of the same
// model, in steps of 1024 tokens from 1024 (Gemini's implicit caching reports cached tokens inside
// promptTokenCount); candidatesTokenCount = chars/4 of the reply parts; thoughtsTokenCount = chars/4
// of the thought text; totalTokenCount = prompt + candidates + thoughts.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[a.slice(2)] = argv[++i];
    else out[a.slice(2)] = 'true';
  }
  return out;
}
const args = parseArgs(process.argv.slice(2));
const opt = (k, env, dflt) => args[k] ?? process.env[env] ?? dflt;
const PORT = Number(opt('port', 'MOCK_PORT', '0'));
const PORT_FILE = opt('port-file', 'MOCK_PORT_FILE', '');
const SCRIPT_PATH = opt('script', 'MOCK_SCRIPT', '');
const REQ_DIR = opt('req-dir', 'REQ_DIR', '');
const MODE = opt('mode', 'MOCK_MODE', SCRIPT_PATH ? 'script' : 'record');
const REPLY_TEXT = opt('reply', 'MOCK_REPLY', 'ok');
const LOG_PATH = opt('log', 'MOCK_LOG', '');

// ---------------------------------------------------------------- script
function expandEnv(v) {
  if (typeof v === 'string') return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, n) => process.env[n] ?? m);
  if (Array.isArray(v)) return v.map(expandEnv);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expandEnv(x)]));
  return v;
}
let script = { turns: [], subagents: {}, end_text: 'Done.', compress_summaries: [] };
if (SCRIPT_PATH) script = { ...script, ...expandEnv(JSON.parse(fs.readFileSync(SCRIPT_PATH, 'utf8'))) };
const queues = { main: [...(script.turns ?? [])] };
for (const [k, t] of Object.entries(script.subagents ?? {})) queues[`subagent:${k}`] = [...t];
const compressQueue = [...(script.compress_summaries ?? [])];
let expectPrompt = null;
const emittedCallIds = new Set();
const emittedCallNames = new Map();

function materialize(v) {
  if (Array.isArray(v)) return v.map(materialize);
  if (v && typeof v === 'object') {
    if ('$repeat' in v) return String(v.$repeat).repeat(Number(v.times ?? 1));
    if ('$lines' in v) {
      const lines = [];
      for (let i = 1; i <= Number(v.$lines); i++) lines.push(`${v.prefix ?? 'line'} ${i}`);
      return lines.join('\n') + (v.trailing_newline === false ? '' : '\n');
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, materialize(x)]));
  }
  return v;
}

// ---------------------------------------------------------------- logging / saving
let seq = 0;
function log(line) {
  const s = `[mock ${new Date().toISOString()}] ${line}\n`;
  if (LOG_PATH) fs.appendFileSync(LOG_PATH, s);
  else process.stderr.write(s);
}
if (REQ_DIR) fs.mkdirSync(REQ_DIR, { recursive: true });
function redact(h) {
  const out = { ...h };
  for (const k of ['x-goog-api-key', 'authorization']) if (out[k]) out[k] = `${String(out[k]).slice(0, 6)}…(redacted)`;
  return out;
}
function save(n, kind, req, body) {
  if (!REQ_DIR) return null;
  const f = path.join(REQ_DIR, `${String(n).padStart(4, '0')}-${kind.replace(/[^a-z0-9_-]/gi, '_')}.json`);
  fs.writeFileSync(f, JSON.stringify({ seq: n, time: new Date().toISOString(), method: req.method, url: req.url, kind, headers: redact(req.headers), body }, null, 1));
  return f;
}
function saveReply(f, reply) {
  if (f) fs.writeFileSync(f.replace(/\.json$/, '.response.json'), JSON.stringify(reply, null, 1));
}

// ---------------------------------------------------------------- request helpers
const tok = (chars) => Math.max(1, Math.ceil(chars / 4));
function partText(p) {
  if (!p || typeof p !== 'object') return '';
  if (typeof p.text === 'string') return p.text;
  return JSON.stringify(p);
}
function contentText(c) {
  return (c?.parts ?? []).map(partText).join('\n');
}
function systemText(body) {
  const s = body.systemInstruction ?? body.config?.systemInstruction;
  if (!s) return '';
  if (typeof s === 'string') return s;
  if (Array.isArray(s.parts)) return s.parts.map(partText).join('\n');
  if (typeof s.text === 'string') return s.text;
  return JSON.stringify(s);
}
function declarations(body) {
  const tools = body.tools ?? body.config?.tools ?? [];
  return tools.flatMap((t) => t.functionDeclarations ?? []);
}
function genConfig(body) {
  return body.generationConfig ?? body.config ?? {};
}
function lastUser(body) {
  const contents = body.contents ?? [];
  for (let i = contents.length - 1; i >= 0; i--) if (contents[i].role !== 'model') return contents[i];
  return null;
}
function firstUserText(body) {
  const c = (body.contents ?? []).find((x) => x.role !== 'model');
  return c ? contentText(c) : '';
}

// ---------------------------------------------------------------- classification
const COMPRESS_MARKERS = ['<state_snapshot>', 'state_snapshot'];
function classify(body) {
  const gc = genConfig(body);
  if (gc.responseMimeType === 'application/json' || gc.responseSchema || gc.responseJsonSchema) return 'json';
  const sys = systemText(body);
  const last = lastUser(body);
  const lastText = last ? contentText(last) : '';
  if (COMPRESS_MARKERS.some((m) => sys.includes(m) && /snapshot/i.test(lastText + sys)) && !declarations(body).length) return 'compress';
  if (!declarations(body).length) return 'aux';
  const first = firstUserText(body);
  for (const key of Object.keys(script.subagents ?? {})) if (first.includes(key) || lastText.includes(key)) return `subagent:${key}`;
  if (expectPrompt !== null && MODE === 'script') {
    const responses = (last?.parts ?? []).filter((p) => p.functionResponse);
    const answersUs = responses.length > 0 && responses.every((p) => emittedCallIds.has(p.functionResponse.id) || emittedCallNames.has(p.functionResponse.name));
    if (!answersUs && !lastText.includes(expectPrompt)) return 'aux';
  }
  return 'main';
}

// ---------------------------------------------------------------- replies
// An object that satisfies a JSON schema, preferring the answers that keep the CLI's own loop quiet.
function fromSchema(schema, name = '') {
  if (!schema || typeof schema !== 'object') return null;
  const type = String(schema.type ?? '').toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length) {
    const prefer = ['user', 'flash', 'false', 'no'];
    for (const p of prefer) {
      const hit = schema.enum.find((e) => String(e).toLowerCase() === p || String(e).toLowerCase().includes(p));
      if (hit !== undefined) return hit;
    }
    return schema.enum[0];
  }
  if (type === 'object' || schema.properties) {
    const out = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = fromSchema(v, k);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  // A router's complexity score of 1 picks the cheap model; schemas often require >= 1.
  if (type === 'number' || type === 'integer') return schema.minimum ?? (/confidence/i.test(name) ? 0.99 : 1);
  if (/reason|explanation/i.test(name)) return 'Scripted mock answer.';
  return '';
}
function jsonReply(body) {
  const gc = genConfig(body);
  const schema = gc.responseJsonSchema ?? gc.responseSchema;
  const obj = schema ? fromSchema(schema) : { result: 'ok' };
  return { parts: [{ text: JSON.stringify(obj) }] };
}
function compressReply(body) {
  const text = compressQueue.length
    ? compressQueue.shift()
    : `<state_snapshot>\n  <overall_goal>Scripted mock session; ${(body.contents ?? []).length} contents before compression.</overall_goal>\n  <key_knowledge>(mock)</key_knowledge>\n  <file_system_state>(see transcript)</file_system_state>\n  <recent_actions>(mock)</recent_actions>\n  <current_plan>Wait for the next instruction.</current_plan>\n</state_snapshot>`;
  return { parts: [{ text }] };
}
function callId(name) {
  return `${name}_${crypto.randomBytes(6).toString('hex')}`;
}
// A call in the script names the logical action; the tool and its parameter names are taken from
// what the request declares, so one scenario drives several CLI versions:
//   {"read": "src/x.py", "lines": [10, 40]?}  read_file (file_path; start_line/end_line, or 0-based offset/limit)
//   {"shell": "cmd", "description"?}          run_shell_command
//   {"write": "path", "content": "…"}          write_file
//   {"edit": "path", "old": "…", "new": "…"}   replace (instruction filled in when required)
//   {"grep": "pattern", "path"?, "include"?}   grep_search / search_file_content
//   {"ls": "dir"}, {"glob": "pattern"}         list_directory, glob
//   {"subagent": "codebase_investigator", "prompt": "…"}  the agent's own tool, or invoke_agent
//   {"complete": {…}|true}                  a subagent's complete_task (arguments from its schema)
//   {"name": "tool", "args": {…}}             any tool as given
// Relative paths are joined to PROJECT_DIR.
function declared(body) {
  const map = new Map();
  for (const d of declarations(body)) map.set(d.name, Object.keys((d.parametersJsonSchema ?? d.parameters ?? {}).properties ?? {}));
  return map;
}
function abs(p) {
  const root = process.env.PROJECT_DIR ?? process.cwd();
  return p.startsWith('/') ? p : path.join(root, p);
}
function pick(decl, names) {
  for (const n of names) if (decl.has(n)) return n;
  return names[0];
}
function resolveCall(c, body) {
  const decl = declared(body);
  const params = (name) => decl.get(name) ?? [];
  if (c.name) return { name: c.name, args: materialize(c.args ?? {}) };
  if (c.read !== undefined) {
    const name = pick(decl, ['read_file']);
    const ps = params(name);
    const args = { [ps.includes('absolute_path') ? 'absolute_path' : 'file_path']: abs(c.read) };
    if (c.lines) {
      const [start, end] = c.lines;
      if (ps.includes('start_line')) Object.assign(args, { start_line: start, end_line: end });
      else Object.assign(args, { offset: start - 1, limit: end - start + 1 });
    }
    return { name, args };
  }
  if (c.shell !== undefined) {
    const args = { command: materialize(c.shell) };
    if (c.description) args.description = c.description;
    if (c.dir) args[params('run_shell_command').includes('dir_path') ? 'dir_path' : 'directory'] = c.dir;
    return { name: 'run_shell_command', args };
  }
  if (c.write !== undefined) return { name: 'write_file', args: { file_path: abs(c.write), content: materialize(c.content ?? '') } };
  if (c.edit !== undefined) {
    const args = { file_path: abs(c.edit), old_string: materialize(c.old), new_string: materialize(c.new) };
    if (params('replace').includes('instruction')) args.instruction = c.instruction ?? 'Apply the scripted edit.';
    return { name: 'replace', args };
  }
  if (c.grep !== undefined) {
    const name = pick(decl, ['grep_search', 'search_file_content']);
    const args = { pattern: c.grep };
    if (c.path) args[params(name).includes('dir_path') ? 'dir_path' : 'path'] = abs(c.path);
    if (c.include) args[params(name).includes('include_pattern') ? 'include_pattern' : 'include'] = c.include;
    return { name, args };
  }
  if (c.ls !== undefined) return { name: 'list_directory', args: { [params('list_directory').includes('dir_path') ? 'dir_path' : 'path']: abs(c.ls) } };
  if (c.glob !== undefined) return { name: 'glob', args: { pattern: c.glob } };
  if (c.complete !== undefined) {
    // A subagent's closing call: the arguments its declaration asks for, filled from the schema
    // where the script gives none.
    const d = declarations(body).find((x) => x.name === 'complete_task');
    const schema = d?.parametersJsonSchema ?? d?.parameters ?? { properties: {} };
    const args = fromSchema(schema) ?? {};
    if (c.complete && typeof c.complete === 'object') Object.assign(args, materialize(c.complete));
    return { name: 'complete_task', args };
  }
  if (c.subagent !== undefined) {
    if (decl.has(c.subagent)) {
      const ps = params(c.subagent);
      const key = ps.find((k) => ['objective', 'request', 'question', 'prompt', 'query'].includes(k)) ?? 'objective';
      return { name: c.subagent, args: { [key]: c.prompt } };
    }
    return { name: 'invoke_agent', args: { agent_name: c.subagent, prompt: c.prompt } };
  }
  throw new Error(`mock: cannot read the call ${JSON.stringify(c)}`);
}
function turnParts(turn, body) {
  const parts = [];
  if (turn.thought) parts.push({ text: materialize(turn.thought), thought: true });
  if (turn.text) parts.push({ text: materialize(turn.text) });
  for (const c of turn.calls ?? []) {
    const { name, args } = resolveCall(c, body);
    const id = c.id ?? callId(name);
    emittedCallIds.add(id);
    emittedCallNames.set(name, id);
    parts.push({ functionCall: { id, name, args } });
  }
  if (!parts.length) parts.push({ text: script.end_text ?? 'Done.' });
  return parts;
}

// Implicit prompt caching: the longest shared prefix (in characters of the JSON of each content) with
// any earlier request of this model, reported in 1024-token steps.
const seenPrefixes = new Map();
function cachedTokens(body, model) {
  const seqs = (body.contents ?? []).map((c) => JSON.stringify(c));
  const head = systemText(body) + JSON.stringify(body.tools ?? []);
  let h = crypto.createHash('sha1').update(model).update(head).digest('hex');
  let chars = head.length;
  let best = 0;
  const hashes = [];
  for (const s of seqs) {
    h = crypto.createHash('sha1').update(h).update(s).digest('hex');
    chars += s.length;
    hashes.push([h, chars]);
    if (seenPrefixes.has(h)) best = chars;
  }
  for (const [hh, c] of hashes) seenPrefixes.set(hh, c);
  const t = tok(best);
  return t >= 1024 ? Math.floor(t / 1024) * 1024 : 0;
}
function usageFor(body, model, parts, override) {
  const prompt = tok(systemText(body).length + JSON.stringify(body.tools ?? []).length + JSON.stringify(body.contents ?? []).length);
  const thoughts = parts.filter((p) => p.thought).reduce((a, p) => a + p.text.length, 0);
  const cand = parts.filter((p) => !p.thought).reduce((a, p) => a + JSON.stringify(p).length, 0);
  const u = {
    promptTokenCount: prompt,
    candidatesTokenCount: tok(cand),
    totalTokenCount: 0,
    cachedContentTokenCount: Math.min(cachedTokens(body, model), prompt),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
  if (thoughts) u.thoughtsTokenCount = tok(thoughts);
  Object.assign(u, override ?? {});
  if (!u.cachedContentTokenCount) delete u.cachedContentTokenCount;
  u.totalTokenCount = override?.totalTokenCount ?? u.promptTokenCount + u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0);
  return u;
}

function nextTurn(kind) {
  if (MODE === 'record' && kind === 'main') return { text: REPLY_TEXT };
  const q = queues[kind] ?? [];
  if (q.length) return q.shift();
  return { text: kind === 'main' ? (script.end_text ?? REPLY_TEXT) : 'Subagent finished.' };
}

function buildReply(kind, body, model) {
  let turn = {};
  let content;
  if (kind === 'json') content = jsonReply(body);
  else if (kind === 'compress') content = compressReply(body);
  else if (kind === 'aux') content = { parts: [{ text: /title|summar/i.test(systemText(body) + contentText(lastUser(body))) ? 'Scripted session' : 'ok' }] };
  else {
    turn = nextTurn(kind);
    if (turn.error) return { error: turn.error, delay_ms: turn.delay_ms ?? 0 };
    content = { parts: turnParts(turn, body) };
  }
  const parts = content.parts;
  return {
    response: {
      candidates: [{ content: { role: 'model', parts }, finishReason: turn.finish_reason ?? 'STOP', index: 0 }],
      usageMetadata: usageFor(body, model, parts, turn.usage),
      modelVersion: model,
      responseId: crypto.randomBytes(12).toString('base64url'),
    },
    delay_ms: turn.delay_ms ?? 0,
  };
}

// A streamed reply: the text in a few chunks, function calls whole, usage on the last chunk.
function streamChunks(resp) {
  const cand = resp.candidates[0];
  const out = [];
  for (const p of cand.content.parts) {
    if (typeof p.text === 'string' && p.text.length > 400) {
      for (let i = 0; i < p.text.length; i += 400) out.push({ ...p, text: p.text.slice(i, i + 400) });
    } else out.push(p);
  }
  return out.map((p, i) => {
    const last = i === out.length - 1;
    const chunk = { candidates: [{ content: { role: 'model', parts: [p] }, index: 0 }], modelVersion: resp.modelVersion, responseId: resp.responseId };
    if (last) {
      chunk.candidates[0].finishReason = cand.finishReason;
      chunk.usageMetadata = resp.usageMetadata;
    }
    return chunk;
  });
}

// ---------------------------------------------------------------- server
function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
function sendJson(res, status, obj) {
  const s = JSON.stringify(obj);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(s) });
  res.end(s);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const counts = {};

const server = http.createServer(async (req, res) => {
  const raw = await readBody(req);
  let body = null;
  try { body = raw.length ? JSON.parse(raw.toString('utf8')) : null; } catch { body = raw.toString('utf8'); }
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/__mock/queue' && req.method === 'POST') {
    if (body?.turns) queues.main.push(...body.turns);
    for (const [k, t] of Object.entries(body?.subagents ?? {})) (queues[`subagent:${k}`] ??= []).push(...t);
    if (body?.expect_prompt !== undefined) expectPrompt = body.expect_prompt;
    if (body?.end_text !== undefined) script.end_text = body.end_text;
    if (body?.subagents) script.subagents = { ...script.subagents, ...body.subagents };
    return sendJson(res, 200, { ok: true, queued: queues.main.length });
  }
  if (url.pathname === '/__mock/state') return sendJson(res, 200, { counts, remaining: Object.fromEntries(Object.entries(queues).map(([k, q]) => [k, q.length])), expectPrompt });

  const n = ++seq;
  const m = url.pathname.match(/^\/(v1(?:beta|alpha)?)\/models\/([^/:]+):(\w+)$/);
  if (!m) {
    if (req.method === 'GET' && /\/models\/?$/.test(url.pathname)) {
      save(n, 'models', req, body);
      return sendJson(res, 200, { models: [] });
    }
    if (req.method === 'HEAD' || (req.method === 'GET' && url.pathname === '/')) { res.writeHead(200); return res.end(); }
    const f = save(n, 'unknown', req, body);
    log(`#${n} ${req.method} ${req.url} -> 404 (unknown endpoint)`);
    saveReply(f, { status: 404 });
    return sendJson(res, 404, { error: { code: 404, message: `mock: no such endpoint ${url.pathname}`, status: 'NOT_FOUND' } });
  }
  const [, , model, method] = m;
  if (method === 'countTokens') {
    const contents = body?.contents ?? body?.generateContentRequest?.contents ?? [];
    const reply = { totalTokens: tok(JSON.stringify(contents).length) };
    saveReply(save(n, 'countTokens', req, body), reply);
    log(`#${n} countTokens ${model} -> ${reply.totalTokens}`);
    return sendJson(res, 200, reply);
  }
  if (method === 'embedContent' || method === 'batchEmbedContents') {
    const reply = { embedding: { values: Array.from({ length: 8 }, () => 0) } };
    saveReply(save(n, method, req, body), reply);
    return sendJson(res, 200, reply);
  }
  if (method !== 'generateContent' && method !== 'streamGenerateContent') {
    saveReply(save(n, `unknown-${method}`, req, body), { status: 404 });
    return sendJson(res, 404, { error: { code: 404, message: `mock: no such method ${method}`, status: 'NOT_FOUND' } });
  }
  const kind = classify(body ?? {});
  counts[kind] = (counts[kind] ?? 0) + 1;
  const f = save(n, kind, req, body);
  const reply = buildReply(kind, body ?? {}, model);
  if (reply.delay_ms) await sleep(reply.delay_ms);
  if (reply.error) {
    const status = Number(reply.error.status ?? 500);
    const err = { error: { code: status, message: reply.error.message ?? 'mock error', status: reply.error.status_text ?? (status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL') } };
    saveReply(f, err);
    log(`#${n} ${method} ${model} kind=${kind} -> HTTP ${status}`);
    return sendJson(res, status, err);
  }
  const resp = reply.response;
  saveReply(f, resp);
  const summary = resp.candidates[0].content.parts.map((p) => (p.functionCall ? `call:${p.functionCall.name}` : p.thought ? 'thought' : `text(${p.text.length})`)).join(',');
  log(`#${n} ${method} ${model} kind=${kind} contents=${(body?.contents ?? []).length} -> ${summary} prompt=${resp.usageMetadata.promptTokenCount}`);
  if (method === 'generateContent') return sendJson(res, 200, resp);
  if (url.searchParams.get('alt') === 'sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const chunk of streamChunks(resp)) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    return res.end();
  }
  return sendJson(res, 200, streamChunks(resp));
});

server.listen(PORT, '127.0.0.1', () => {
  const port = server.address().port;
  if (PORT_FILE) fs.writeFileSync(PORT_FILE, String(port));
  log(`listening on 127.0.0.1:${port} mode=${MODE} script=${SCRIPT_PATH || '-'}`);
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
