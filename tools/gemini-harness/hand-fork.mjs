#!/usr/bin/env node
// hand-fork.mjs — make a fork of a Gemini CLI chat file by hand, the way the recipe in FINDINGS.md §7
// says: a new session id everywhere the file names one, a file name that carries it, and (optionally)
// one tool output shortened in every copy the file holds of it. Used by fork-check-selftest.mjs and to
// try the recipe on any session.
//
//   node hand-fork.mjs <chat file> [--out FILE] [--id UUID] [--shorten CALL_ID|largest] [--text TEXT]
//                      [--keep-id] [--keep-name] [--only-user-copy]
//
//   --shorten        the call whose output is replaced (default: the largest output)
//   --text           the replacement output (default a one-line tombstone)
//   --keep-id        keep the original's session id (a broken fork, for the self-test)
//   --only-user-copy shorten only the user message's functionResponse, not the gemini record's copy
//   --drop-response  remove that call's functionResponse parts instead (a broken fork)
// Writes the fork beside the original unless --out is given, and prints {file, sessionId, callId, from, to}.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseFlags } from './lib.mjs';

function outputsOf(value, visit) {
  if (Array.isArray(value)) { value.forEach((v) => outputsOf(v, visit)); return; }
  if (!value || typeof value !== 'object') return;
  if (value.functionResponse && typeof value.functionResponse === 'object') visit(value.functionResponse);
  for (const v of Object.values(value)) outputsOf(v, visit);
}
function outputText(fr) {
  const r = fr.response ?? {};
  return typeof r.output === 'string' ? r.output : JSON.stringify(r);
}

/** The call id whose recorded output is largest. */
export function largestOutput(records) {
  let best = null;
  for (const r of records) outputsOf(r, (fr) => {
    const n = outputText(fr).length;
    if (!best || n > best.n) best = { id: fr.id, n };
  });
  return best?.id ?? null;
}

function renameSession(record, from, to) {
  if (record && typeof record === 'object') {
    if (record.sessionId === from) record.sessionId = to;
    if (record.$set && record.$set.sessionId === from) record.$set.sessionId = to;
  }
}

/** Applies the shortening to one record (a message, a $set, or the whole document). */
function shorten(record, callId, text, opts) {
  let from = 0;
  const visitMessages = (messages) => {
    for (const m of messages ?? []) {
      if (opts.onlyUserCopy && m.type !== 'user') continue;
      if (opts.drop) {
        // Remove the response wherever it is recorded: the user message's parts and the call's result.
        const keep = (p) => p?.functionResponse?.id !== callId;
        const before = JSON.stringify(m).length;
        if (Array.isArray(m.content)) m.content = m.content.filter(keep);
        for (const tc of m.toolCalls ?? []) if (Array.isArray(tc.result)) tc.result = tc.result.filter(keep);
        from = Math.max(from, before - JSON.stringify(m).length);
        continue;
      }
      outputsOf(m, (fr) => {
        if (fr.id !== callId) return;
        from = Math.max(from, outputText(fr).length);
        fr.response = { output: text };
      });
    }
  };
  if (Array.isArray(record.messages)) visitMessages(record.messages);
  else if (record.$set && Array.isArray(record.$set.messages)) visitMessages(record.$set.messages);
  else if (typeof record.id === 'string') visitMessages([record]);
  return from;
}

export function handFork(file, { out, id, callId, text, keepId = false, keepName = false, onlyUserCopy = false, drop = false } = {}) {
  const isLog = file.endsWith('.jsonl');
  const raw = fs.readFileSync(file, 'utf8');
  const records = isLog ? raw.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)) : [JSON.parse(raw)];
  const origId = records.find((r) => typeof r.sessionId === 'string')?.sessionId;
  const newId = keepId ? origId : (id ?? crypto.randomUUID());
  const target = callId === 'largest' || !callId ? largestOutput(records) : callId;
  const tomb = text ?? `[glassbox: output removed by hand for a fork test; ${target}]`;
  let from = 0;
  for (const r of records) {
    renameSession(r, origId, newId);
    if (target) from = Math.max(from, shorten(r, target, tomb, { onlyUserCopy, drop }));
  }
  const base = path.basename(file);
  const name = keepName ? base : base.replace(/-[0-9a-zA-Z_]{8}(\.jsonl?)$/, `-${newId.slice(0, 8)}$1`);
  const dest = out ?? path.join(path.dirname(file), name === base ? `fork-${base}` : name);
  if (fs.existsSync(dest)) throw new Error(`${dest} exists; not overwritten`);
  const body = isLog ? records.map((r) => JSON.stringify(r)).join('\n') + '\n' : JSON.stringify(records[0], null, 2);
  fs.writeFileSync(dest, body, { flag: 'wx' });
  return { file: dest, sessionId: newId, originalId: origId, callId: target, from, to: tomb.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { flags, pos } = parseFlags(process.argv.slice(2), ['keep-id', 'keep-name', 'only-user-copy', 'drop-response']);
  if (!pos[0]) { console.error('usage: node hand-fork.mjs <chat file> [--out FILE] [--id UUID] [--shorten CALL_ID|largest] [--text TEXT] [--keep-id] [--keep-name]'); process.exit(2); }
  const r = handFork(path.resolve(pos[0]), {
    out: flags.out ? path.resolve(flags.out) : undefined, id: flags.id, callId: flags.shorten, text: flags.text,
    keepId: flags['keep-id'], keepName: flags['keep-name'], onlyUserCopy: flags['only-user-copy'], drop: flags['drop-response'],
  });
  console.log(JSON.stringify(r, null, 2));
}
