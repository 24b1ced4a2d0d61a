#!/usr/bin/env node
// fork-check.mjs — does a fork of a Gemini CLI session resume like its original, as a session of its own?
//
//   node fork-check.mjs --original <chat file> --fork <chat file> [--cli 0.61] [--cwd DIR] [--out DIR]
//
// Two resumes with the real CLI in the same scratch HOME path and project folder:
//   A. the original alone in chats/, resumed by its session id;
//   B. the original AND the fork in chats/, the fork resumed by its own session id.
// Then `--list-sessions` in B's HOME must list both, and the two first requests are compared content
// by content and part by part. Passes when: both resumed (the CLI reports each one's own id), the
// fork's id differs from the original's, the original's bytes are untouched by B, the system
// instruction, tools and generation config are equal, and every part is equal except
// functionResponse outputs the fork made shorter (a tombstone in place of a payload), and the paths
// of saved outputs, which a fork may point at its own copies (tool-outputs/session-<fork id>/).
// Exit 0 = equivalent; the verdict (JSON) is printed and written to <out>/fork-check.json.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HARNESS_DIR, DEFAULT_CLI, ensureNetns, parseFlags, chatInfo, findGemini, geminiEnv, prepareProjectDir, runGemini, startMock } from './lib.mjs';
import { resumeProbe, mainRequests, manifestFor } from './resume-probe.mjs';

const sha = (f) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');

function responseOutput(p) {
  const r = p.functionResponse?.response;
  if (!r) return null;
  if (typeof r.output === 'string') return r.output;
  return JSON.stringify(r);
}

/**
 * A fork names its own copies of the session's saved outputs (`tool-outputs/session-<fork id>/…`, where
 * the original names `session-<original id>`): in the fork's request those paths are read back as the
 * original's before comparing, and counted.
 */
function unrenameOutputPaths(part, renamed) {
  if (!renamed) return { part, count: 0 };
  const text = JSON.stringify(part);
  let count = 0;
  const re = new RegExp(`(tool-outputs(?:/|\\\\\\\\)session-)${renamed.fork}(?=/|\\\\)`, 'g');
  const back = text.replace(re, (_m, head) => {
    count++;
    return `${head}${renamed.original}`;
  });
  return { part: count > 0 ? JSON.parse(back) : part, count };
}

/** Part-by-part differences between the original's request (a) and the fork's (b). */
export function compareRequests(a, b, renamed = null) {
  const problems = [];
  const shortened = [];
  let outputPathsRenamed = 0;
  for (const key of ['systemInstruction', 'tools', 'generationConfig', 'toolConfig']) {
    if (JSON.stringify(a[key] ?? null) !== JSON.stringify(b[key] ?? null)) problems.push(`${key} differs`);
  }
  const ca = a.contents ?? [];
  const cb = b.contents ?? [];
  if (ca.length !== cb.length) problems.push(`contents: ${ca.length} in the original's request, ${cb.length} in the fork's`);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    if (ca[i].role !== cb[i].role) { problems.push(`content ${i}: role ${ca[i].role} vs ${cb[i].role}`); continue; }
    const pa = ca[i].parts ?? [];
    const pb = cb[i].parts ?? [];
    if (pa.length !== pb.length) { problems.push(`content ${i}: ${pa.length} parts vs ${pb.length}`); continue; }
    for (let j = 0; j < pa.length; j++) {
      const un = unrenameOutputPaths(pb[j], renamed);
      outputPathsRenamed += un.count;
      pb[j] = un.part;
      if (JSON.stringify(pa[j]) === JSON.stringify(pb[j])) continue;
      const oa = responseOutput(pa[j]);
      const ob = responseOutput(pb[j]);
      const sameCall = pa[j].functionResponse && pb[j].functionResponse && pa[j].functionResponse.id === pb[j].functionResponse.id && pa[j].functionResponse.name === pb[j].functionResponse.name;
      if (sameCall && oa !== null && ob !== null && ob.length < oa.length) {
        shortened.push({ content: i, part: j, id: pa[j].functionResponse.id, from: oa.length, to: ob.length });
        continue;
      }
      problems.push(`content ${i} part ${j} differs: ${JSON.stringify(pa[j]).slice(0, 160)} vs ${JSON.stringify(pb[j]).slice(0, 160)}`);
    }
  }
  return { problems, shortened, outputPathsRenamed };
}

async function listSessions(cli, home, cwd) {
  const mock = await startMock({ mode: 'record', portFile: path.join(home, 'list-port'), log: path.join(home, 'list-mock.log') });
  try {
    const r = await runGemini({ bin: cli.bin, args: ['--list-sessions'], cwd, env: geminiEnv({ home, baseUrl: mock.baseUrl }), timeoutMs: 120000 });
    fs.writeFileSync(path.join(home, '..', 'list-sessions.txt'), r.stdout + r.stderr);
    return (r.stdout + r.stderr).split('\n').filter((l) => /\[[0-9a-f-]{36}\]|^\s*\d+\./.test(l)).map((l) => l.trim());
  } finally {
    await mock.stop();
  }
}

export async function forkCheck({ original, fork, cli: short = DEFAULT_CLI, cwd, out, project }) {
  const cli = findGemini(short);
  out = path.resolve(out ?? path.join(HARNESS_DIR, 'out', 'fork-checks', `${path.basename(fork).replace(/\.jsonl?$/, '')}-${Date.now()}`));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const home = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-forkcheck-')), 'home');
  const oi = chatInfo(original);
  const fi = chatInfo(fork);
  const found = manifestFor(original);
  // Both resumes run in the same folder with the same files: the original's (its manifest's cwd and
  // project-after/, when it has one), so the fork, wherever it lies, sees the same project.
  const projectDir = project ?? (found && fs.existsSync(path.join(found.dir, 'project-after')) ? path.join(found.dir, 'project-after') : undefined);
  // Session retention is off in both runs: the client's start-up clean-up would otherwise delete a
  // session whose lastUpdated is older than 30 days, and any file sharing a short id with a resume's
  // stub file (FINDINGS §8) — the probe is about what resume sends, not about clean-up.
  const settings = { general: { sessionRetention: { enabled: false } } };
  const base = { cli: short, home, cwd: cwd ?? found?.manifest.cwd, project: projectDir, keepHome: true, settings };
  const a = await resumeProbe({ ...base, file: original, out: path.join(out, 'A-original') });
  // B: both installed; the original is installed under its own name and must not change.
  // The listing is a client start of its own: it may write a summary into the most recent session that
  // has none (FINDINGS §8), so the original's bytes are taken after it and compared after the resume.
  let installedOriginal = null;
  let originalBeforeResume = null;
  let listingWroteOriginal = false;
  const b = await resumeProbe({
    ...base, file: fork, extra: [original], out: path.join(out, 'B-fork'),
    beforeResume: async (h, c) => {
      const lines = await listSessions(cli, h, c);
      installedOriginal = path.join(prepareProjectDir(h, cli.version, c), 'chats', path.basename(original));
      originalBeforeResume = fs.existsSync(installedOriginal) ? sha(installedOriginal) : null;
      listingWroteOriginal = originalBeforeResume !== sha(original);
      return lines;
    },
  });
  const listed = b.beforeResume ?? [];
  const originalUntouched = installedOriginal !== null && fs.existsSync(installedOriginal) && sha(installedOriginal) === originalBeforeResume;
  fs.copyFileSync(path.join(home, '..', 'list-sessions.txt'), path.join(out, 'list-sessions.txt'));
  if (process.env.GEMINI_HARNESS_KEEP !== '1') fs.rmSync(path.dirname(home), { recursive: true, force: true });
  const ra = mainRequests(path.join(a.out, 'requests'))[0]?.body;
  const rb = mainRequests(path.join(b.out, 'requests'))[0]?.body;
  const problems = [];
  if (!a.resumed) problems.push(`the original did not resume: ${a.error ?? 'no request'}`);
  if (!b.resumed) problems.push(`the fork did not resume: ${b.error ?? 'no request'}`);
  if (oi.sessionId === fi.sessionId) problems.push('the fork has the original\'s session id');
  if (!originalUntouched) problems.push('resuming the fork changed the original\'s file');
  const listedIds = listed.join('\n');
  if (!listedIds.includes(fi.sessionId) || !listedIds.includes(oi.sessionId)) problems.push(`--list-sessions does not list both sessions: ${listed.join(' | ')}`);
  let cmp = { problems: [], shortened: [], outputPathsRenamed: 0 };
  if (ra && rb) cmp = compareRequests(ra, rb, { fork: fi.sessionId, original: oi.sessionId });
  problems.push(...cmp.problems);
  const verdict = {
    cli: cli.version, original, fork, originalId: oi.sessionId, forkId: fi.sessionId,
    resumed: { original: a.resumed, fork: b.resumed }, resumedAs: { original: a.resumedAs, fork: b.resumedAs },
    originalUntouched, listingWroteOriginal, listed, shortened: cmp.shortened, outputPathsRenamed: cmp.outputPathsRenamed, problems, equivalent: problems.length === 0, out,
  };
  fs.writeFileSync(path.join(out, 'fork-check.json'), JSON.stringify(verdict, null, 2));
  return verdict;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureNetns(process.argv);
  const { flags } = parseFlags(process.argv.slice(2), ['no-netns']);
  if (!flags.original || !flags.fork) {
    console.error('usage: node fork-check.mjs --original <chat file> --fork <chat file> [--cli 0.61] [--cwd DIR] [--out DIR]');
    process.exit(2);
  }
  const v = await forkCheck({ original: path.resolve(flags.original), fork: path.resolve(flags.fork), cli: flags.cli, cwd: flags.cwd, out: flags.out, project: flags.project });
  console.log(JSON.stringify(v, null, 2));
  process.exit(v.equivalent ? 0 : 1);
}
