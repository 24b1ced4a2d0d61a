#!/usr/bin/env node
// fork-check-selftest.mjs — does fork-check tell good forks from broken ones on a real chat?
//
//   node fork-check-selftest.mjs <chat file> [--cli 0.61]
//
// Builds, with hand-fork.mjs, (a) a good fork: new id, new short id in the name, the largest output
// shortened in every copy; (b) the same with the original's id kept; (c) a fork whose largest
// output's function response is dropped; and, for a 0.39+ log, (d) a fork that shortens only the
// user message's copy. Each goes through fork-check. Expected: (a) equivalent; (b) and (c) not;
// (d) equivalent as far as the client goes (the rebuilt copy still carries the whole output — which
// fork-check reports as a part left unshortened, and the adapter must not call reclaimed).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureNetns, parseFlags } from './lib.mjs';
import { handFork } from './hand-fork.mjs';
import { forkCheck } from './fork-check.mjs';

ensureNetns(process.argv);
const { flags, pos } = parseFlags(process.argv.slice(2), ['no-netns']);
if (!pos[0]) { console.error('usage: node fork-check-selftest.mjs <chat file> [--cli 0.61]'); process.exit(2); }
const original = path.resolve(pos[0]);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-selftest-'));
const ext = original.endsWith('.jsonl') ? '.jsonl' : '.json';
const named = (r) => {
  const dest = path.join(tmp, path.basename(original).replace(/-[0-9a-zA-Z_]{8}(\.jsonl?)$/, `-${r.sessionId.slice(0, 8)}$1`));
  if (dest !== r.file) fs.renameSync(r.file, dest);
  return dest;
};
const cases = [
  { name: 'good', expect: true, opts: {} },
  { name: 'same-id', expect: false, opts: { keepId: true } },
  { name: 'response-dropped', expect: false, opts: { drop: true } },
];
if (ext === '.jsonl') cases.push({ name: 'one-copy-left', expect: true, opts: { onlyUserCopy: true } });
const results = [];
for (const c of cases) {
  const r = handFork(original, { ...c.opts, out: path.join(tmp, `${c.name}${ext}`) });
  const fork = c.opts.keepId ? path.join(tmp, `sameid-${path.basename(original)}`) : named(r);
  if (c.opts.keepId) fs.renameSync(r.file, fork);
  const v = await forkCheck({ original, fork, cli: flags.cli, out: path.join(tmp, `check-${c.name}`) });
  const left = v.shortened.length;
  results.push({ case: c.name, expected: c.expect, equivalent: v.equivalent, ok: v.equivalent === c.expect, shortenedParts: left, problems: v.problems.slice(0, 3) });
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(JSON.stringify(results, null, 2));
process.exit(results.every((r) => r.ok) ? 0 : 1);
