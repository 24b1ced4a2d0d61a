import { buildForkFromLines, validateFromLines, type ForkAction, type ForkResult, type ValidateOptions, type ValidationReport } from '@glassbox/core';
// The Codex adapter behind the agent seam: recognition, the fork builder and validator in core's
// terms (fed a plan of the unchanged analysis), and the resume command.
import { analyzeSession, planEviction } from '@glassbox/analysis';
import { fixturePorts } from '@glassbox/test-support/ports';
import { recogniseClaudeCode } from '@glassbox/adapter-claude-code';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFormat } from './agent';
import { uuidV7 } from './fork';
import { readRolloutFile } from './node/read-file';
import { CLAUDE_TRANSCRIPT, CODEX_CORPUS, MOONMIND_058, allRollouts, firstRollout, linesOf, scenarioRollouts } from '@glassbox/test-support/codex/corpus';

const ports = fixturePorts('2026-12-01');

/** The seam's streaming builder and validator, run over lines held in memory. */
const forkLines = (lines: readonly string[], actions: readonly ForkAction[], id: string): ForkResult => buildForkFromLines(codexFormat.createForkBuilder(actions, id), lines);
const validateLines = (original: readonly string[], fork: readonly string[], options?: ValidateOptions): ValidationReport => validateFromLines(codexFormat.createForkValidator(options), original, fork);


const NEW_ID = uuidV7(Date.parse('2026-12-01T12:00:00Z'), new Uint8Array(10).fill(7));

describe('recognition from the first lines', () => {
  // That this adapter knows every rollout and no other claims one is the shared conformance suite's
  // (packages/agents/src/conformance.test.ts); Claude Code's adapter goes further and is never unsure.
  it('Claude Code’s adapter refuses every rollout outright', () => {
    for (const path of allRollouts()) expect(recogniseClaudeCode(linesOf(path).slice(0, 40)).verdict, path).toBe('no');
  });

  it('names a Claude Code transcript for what it is', () => {
    expect(codexFormat.recognise(linesOf(CLAUDE_TRANSCRIPT).slice(0, 40))).toEqual({ verdict: 'no', what: 'a Claude Code transcript' });
  });

  it('claims a rollout of an unknown generation, so that its own parser says why it cannot read it', () => {
    const lines = linesOf(MOONMIND_058).slice(1);
    expect(codexFormat.recognise(lines.slice(0, 40))).toEqual({ verdict: 'yes' });
    const p = codexFormat.createParser({ path: 'x.jsonl' });
    lines.forEach((l, i) => p.push(l, i + 1, 0, 0));
    expect(p.finish(true).problems[0]?.message).toMatch(/^x\.jsonl:1: a Codex rollout of an unknown generation/);
  });

  it('cannot tell from blank or unparsable lines', () => {
    expect(codexFormat.recognise([])).toEqual({ verdict: 'unknown' });
    expect(codexFormat.recognise(['', '{"timestamp":"2026-'])).toEqual({ verdict: 'unknown' });
  });
});

describe('fork through the seam: a plan of the analysis in, core’s fork result and validation report out', () => {
  it.each(['01-shell-reads-and-patch', '02-duplicates-deletes-errors', '03-long-session-compaction', '04-read-grammar-and-fork'])('%s', (name) => {
    const path = firstRollout(name);
    // Every class, spent included: after 03's compactions nothing provable is left in the window.
    const snapshot = analyzeSession(readRolloutFile(path), ports, { repoRoot: join(CODEX_CORPUS, name, 'project-after'), protectTail: 0, withInferred: true });
    const plan = planEviction(snapshot, { classes: ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'], minimumSavings: 0 });
    expect(plan.actions.length).toBeGreaterThan(0);
    // Actions named by node only (no line): the builder takes the line from the node id.
    const actions = plan.actions.map(({ line: _line, ...rest }) => rest);
    const lines = linesOf(path);
    const fork = forkLines(lines, actions, NEW_ID);
    expect(fork.applied.length + fork.refused.length).toBe(actions.length);
    expect(fork.applied.length).toBeGreaterThan(0);
    for (const r of fork.refused) expect(r.code).toBe('not_smaller');
    expect(fork.applied.every((a) => actions.includes(a.action as (typeof actions)[number]))).toBe(true);
    expect(new Set(fork.applied.map((a) => a.toolName))).toEqual(new Set(['exec_command']));
    expect(fork.originalSessionIds).toEqual([readRolloutFile(path).id]);
    for (const a of fork.applied) expect(a.removed[0]?.sentToModel).toBe(true);
    const report = validateLines(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.fork.sessionId).toBe(NEW_ID);
    expect(report.fork.live).toBe(report.original.live);
    expect(report.fork.estimatedTokens).toBeLessThan(report.original.estimatedTokens);
    // A writer that misreports what it touched is caught.
    const wrong = validateLines(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: [1] });
    expect(wrong.checks.find((c) => !c.ok)?.id).toBe('reported-touched');
  });

  it('a `codex exec fork` file is refused as a whole, with the reason on every action, and does not validate', () => {
    const path = scenarioRollouts('04-read-grammar-and-fork')[1] as string;
    const lines = linesOf(path);
    const fork = forkLines(lines, [{ uuid: 'L5', blockIndex: 0, target: 'tool-result', tombstone: 'x' }], NEW_ID);
    expect(fork.applied).toEqual([]);
    expect(fork.refused.map((r) => [r.code, r.message])).toEqual([['file_refused', expect.stringMatching(/codex exec fork/)]]);
    const report = validateLines(lines, fork.lines);
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['session-id', 'no-parent']);
  });
});

describe('resume', () => {
  it('is `codex resume <id>`, run from the session’s folder when it is known', () => {
    expect(codexFormat.resumeCommand(NEW_ID, null)).toBe(`codex resume ${NEW_ID}`);
    expect(codexFormat.resumeCommand(NEW_ID, "/work/it's here")).toBe(`cd '/work/it'\\''s here' && codex resume ${NEW_ID}`);
  });
});
