import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultAgents } from '@glassbox/agents';
import { MOONMIND_058, firstRollout } from '@glassbox/test-support/codex/corpus';
import { fixtures, mainChat } from '@glassbox/test-support/gemini/corpus';
import { hostGlassbox } from '../glassbox';
import { WorkHandler } from './handler';
import type { AnalyzeOptions, ResultFor, WorkContext, WorkRequest } from './protocol';

// The window's data for a live Codex rollout or Gemini CLI chat log, as the work thread answers it
// after appends (the session followed, its analysis, cost and views made again on what it holds), is
// what a thread that reads the file whole gives — whatever size the appended pieces are and wherever
// they cut (mid-line too: a torn last line waits for its newline). A rewrite is read whole.

const agents = defaultAgents();
const ctx: WorkContext = { progress: () => {}, cancelled: () => false };
const options: AnalyzeOptions = { repoRoot: null, withInferred: true, diskless: false, readScope: null };

type SnapshotAnswer = ResultFor<{ op: 'snapshot' } & WorkRequest>;

/** The answer as plain data, its JSON parts parsed, without the time the analysis was checked at. */
function view(r: SnapshotAnswer): unknown {
  if (r === 'missing' || !r.view) return r;
  const { json, turnAdditions, ...rest } = r.view;
  const parsed = { summary: r.summary, ...rest, json: JSON.parse(new TextDecoder().decode(json)) as unknown, turnAdditions: JSON.parse(new TextDecoder().decode(turnAdditions)) as unknown };
  return JSON.parse(JSON.stringify(parsed, (k, v: unknown) => (k === 'checkedAt' ? undefined : v)));
}

const snapshot = (h: WorkHandler, path: string): SnapshotAnswer => h.run({ op: 'snapshot', ref: { key: path, path }, options, hideRepoMissing: false }, ctx);
const fresh = (path: string, dataDir: string): unknown => view(snapshot(new WorkHandler(agents, hostGlassbox(agents, dataDir), { follow: false }), path));

interface LiveFile {
  name: string;
  /** Puts a copy of the session in a folder of its own (beside what it needs) and gives its path. */
  place: () => string;
  bytes: Buffer;
}

function codexFile(path: string): LiveFile {
  return {
    name: `Codex ${basename(path)}`,
    place: () => join(mkdtempSync(join(tmpdir(), 'live-codex-')), basename(path)),
    bytes: readFileSync(path),
  };
}

/** A Gemini CLI main chat log, with its chats folder (its subagents' logs, whole) copied beside it. */
function geminiFile(path: string, label: string): LiveFile {
  return {
    name: `Gemini CLI ${label}`,
    place: () => {
      const copy = join(mkdtempSync(join(tmpdir(), 'live-gemini-')), 'chats');
      cpSync(dirname(path), copy, { recursive: true });
      return join(copy, relative(dirname(path), path));
    },
    bytes: readFileSync(path),
  };
}

const files: LiveFile[] = [
  ...['01-shell-reads-and-patch', '02-duplicates-deletes-errors', '03-long-session-compaction', '04-read-grammar-and-fork'].map((s) => codexFile(firstRollout(s))),
  codexFile(MOONMIND_058),
  ...fixtures()
    .filter((f) => mainChat(f).endsWith('.jsonl'))
    .map((f) => geminiFile(mainChat(f), `${f.scenario} v${f.version}`)),
];

describe('the work thread on a live Codex rollout or Gemini CLI chat log', () => {
  it.each(files.map((f) => [f.name, f]))('%s: appended in pieces cut anywhere, each view is a whole read’s', (_name, file) => {
    const firstLine = file.bytes.indexOf(0x0a) + 1;
    // Where each line after the first ends (the byte after its newline).
    const lineEnds: number[] = [];
    for (let at = file.bytes.indexOf(0x0a, firstLine); at >= 0; at = file.bytes.indexOf(0x0a, at + 1)) lineEnds.push(at + 1);
    // A cut at a line's end, or inside the line (halfway), so a piece ends with a torn line.
    const cut = fc.record({ line: fc.integer({ min: 0, max: lineEnds.length - 1 }), torn: fc.boolean() });
    fc.assert(
      fc.property(fc.uniqueArray(cut, { maxLength: 8, selector: (c) => c.line }), (picked) => {
        const offsets = picked.map(({ line, torn }) => {
          const end = lineEnds[line] as number;
          const start = line === 0 ? firstLine : (lineEnds[line - 1] as number);
          return torn ? start + Math.max(1, Math.floor((end - start) / 2)) : end;
        });
        const path = file.place();
        const dataDir = mkdtempSync(join(tmpdir(), 'live-data-'));
        writeFileSync(path, file.bytes.subarray(0, firstLine));
        const live = new WorkHandler(agents, hostGlassbox(agents, dataDir));
        snapshot(live, path);
        const ends = [...new Set([...offsets, file.bytes.length])].sort((a, b) => a - b);
        let from = firstLine;
        for (const end of ends) {
          appendFileSync(path, file.bytes.subarray(from, end));
          from = end;
          const answer = view(snapshot(live, path));
          // A piece that ends mid-line leaves a torn last line, which a whole read reports and the
          // live one waits out; they are compared where the file ends with a newline.
          if (file.bytes[end - 1] === 0x0a) expect(answer, `after byte ${end}`).toEqual(fresh(path, dataDir));
        }
        // Rewritten shorter (the first half of its lines again): read whole, as a fresh open reads it.
        const half = file.bytes.subarray(0, file.bytes.lastIndexOf(0x0a, Math.floor(file.bytes.length / 2)) + 1);
        writeFileSync(path, half.length > firstLine ? half : file.bytes.subarray(0, firstLine));
        expect(view(snapshot(live, path)), 'after a rewrite').toEqual(fresh(path, dataDir));
      }),
      { numRuns: 4 },
    );
  }, 120_000);
});
