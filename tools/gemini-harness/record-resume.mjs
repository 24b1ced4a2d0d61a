#!/usr/bin/env node
// record-resume.mjs — for generated sessions, resume each main chat with the CLI version that wrote it
// and save the request it sent beside the session as resume-request.json ({contents}, plus the sizes
// of the system instruction and tool declarations it carried): what the adapter's window is checked
// against offline.
//
//   node record-resume.mjs out/sessions/v0.61/01-reads-edits-gone [more session folders…]
//   node record-resume.mjs --all [--root out/sessions]

import fs from 'node:fs';
import path from 'node:path';
import { HARNESS_DIR, ensureNetns, parseFlags, chatInfo } from './lib.mjs';
import { resumeProbe } from './resume-probe.mjs';

ensureNetns(process.argv);
const { flags, pos } = parseFlags(process.argv.slice(2), ['all', 'no-netns']);
const root = path.resolve(flags.root ?? path.join(HARNESS_DIR, 'out', 'sessions'));
let dirs = pos.map((p) => path.resolve(p));
if (flags.all) for (const v of fs.readdirSync(root)) for (const s of fs.readdirSync(path.join(root, v))) dirs.push(path.join(root, v, s));
dirs = dirs.filter((d) => fs.existsSync(path.join(d, 'manifest.json')));

/** The session a person would resume: the main chat with the most messages (not a resume's stub). */
function mainChat(dir) {
  const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const best = m.sessions.filter((s) => s.kind !== 'subagent' && s.resumable).sort((a, b) => b.messages - a.messages)[0];
  return best ? path.join(dir, best.file) : null;
}

let failed = 0;
for (const dir of dirs) {
  const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const file = mainChat(dir);
  if (!file) { console.error(`${dir}: no main chat`); failed++; continue; }
  const short = m.cli.split('.').slice(0, 2).join('.');
  const v = await resumeProbe({ file, cli: short, settings: { general: { sessionRetention: { enabled: false } } }, out: path.join(dir, '.resume-probe') });
  const body = JSON.parse(fs.readFileSync(path.join(v.out, 'request.json'), 'utf8'));
  const saved = {
    cli: v.cli, session: path.relative(dir, file), sessionId: chatInfo(file).sessionId, prompt: 'reply ok', model: m.model,
    systemInstructionChars: JSON.stringify(body.systemInstruction ?? '').length, toolsChars: JSON.stringify(body.tools ?? []).length,
    contents: body.contents,
  };
  fs.writeFileSync(path.join(dir, 'resume-request.json'), JSON.stringify(saved, null, 1));
  fs.rmSync(v.out, { recursive: true, force: true });
  console.log(`${path.relative(root, dir)}: resumed=${v.resumed} contents=${v.request?.contents} duplicated=${v.request?.duplicatedResponses.length}`);
  if (!v.resumed) failed++;
}

process.exit(failed ? 1 : 0);
