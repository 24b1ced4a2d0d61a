import { appendFileSync, mkdtempSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '@glassbox/analysis';
import type { Session } from '@glassbox/core';
import { MOONMIND_058, allRollouts, linesOf } from '@glassbox/test-support/codex/corpus';
import { fixturePorts } from '@glassbox/test-support/ports';
import { codexLocator } from './locator';
import { followRollout } from './follow';

const testPorts = fixturePorts('2026-12-01');

/** What a reader of the session sees, Maps as entries, functions left out. */
function facts(s: Session): unknown {
  const { nodes, toolCalls, capturedTextOf: _read, ...rest } = s;
  return JSON.parse(JSON.stringify({ ...rest, nodes: [...nodes], toolCalls: [...toolCalls] }));
}

/** The analysis as JSON, without the time it was checked at, and every read's captured text as read back. */
function analysed(s: Session): unknown {
  const snap = analyzeSession(s, testPorts, { repoRoot: null, withInferred: true });
  const captured = [...s.toolCalls.values()].map((c) => s.capturedTextOf?.(c) ?? null);
  return JSON.parse(JSON.stringify({ snap, captured }, (k, v: unknown) => (k === 'checkedAt' ? undefined : v)));
}

/** A copy of a real rollout, emptied, in a folder of its own (the name keeps the session id). */
function emptied(path: string): { copy: string; lines: string[] } {
  const copy = join(mkdtempSync(join(tmpdir(), 'codex-follow-')), basename(path));
  writeFileSync(copy, '');
  return { copy, lines: linesOf(path) };
}

describe('a followed Codex rollout', () => {
  // The important property: a rollout brought up to date append by append is the session a whole read
  // gives, and so is its analysis. Every real rollout (both generations), every record.
  it.each(allRollouts().map((p) => [basename(p), p]))('%s appended record by record equals a whole read, and so does its analysis', (_name, path) => {
    const { copy, lines } = emptied(path);
    appendFileSync(copy, `${lines[0]}\n`);
    const follower = followRollout(copy);
    // Each record is appended and read on its own; a long public rollout is compared with a whole
    // read at about 150 points spread over it (a whole read per line is quadratic).
    const stride = Math.max(1, Math.ceil(lines.length / 150));
    for (let i = 1; i < lines.length; i++) {
      appendFileSync(copy, `${lines[i]}\n`);
      const live = follower.update();
      expect(live, `line ${i + 1}: the append was read`).not.toBeNull();
      if (i % stride !== 0 && i !== lines.length - 1) continue;
      const whole = codexLocator.load(copy);
      const session = live?.session as Session;
      expect(facts(session), `line ${i + 1}: the session`).toEqual(facts(whole.session));
      // The analysis at a few points and at the end (it is the same code on the same session).
      if (i % (25 * stride) === 0 || i === lines.length - 1) expect(analysed(session), `line ${i + 1}: the analysis`).toEqual(analysed(whole.session));
    }
  }, 120_000);

  // The copy each update finishes shares the let-go usage and the requests with the parser (they only
  // grow): a session handed out earlier must not see what came after it, nor what its copy's finish added.
  it('leaves a session it gave earlier as it was when later records come', () => {
    const { copy, lines } = emptied(MOONMIND_058);
    const half = Math.floor(lines.length / 2);
    appendFileSync(copy, lines.slice(0, half).join('\n') + '\n');
    const follower = followRollout(copy);
    const early = follower.update()?.session as Session;
    const before = facts(early);
    for (let i = half; i < lines.length; i += 50) {
      appendFileSync(copy, lines.slice(i, i + 50).join('\n') + '\n');
      expect(follower.update()).not.toBeNull();
    }
    expect(facts(early)).toEqual(before);
    expect(facts(follower.loaded.session)).toEqual(facts(codexLocator.load(copy).session));
  });

  it('waits for the newline of a line still being written, then reads it', () => {
    const { copy, lines } = emptied(allRollouts()[0] as string);
    appendFileSync(copy, lines.slice(0, 10).join('\n') + '\n');
    const follower = followRollout(copy);
    const before = facts(follower.loaded.session);
    const line = lines[10] ?? '';
    appendFileSync(copy, line.slice(0, Math.floor(line.length / 2)));
    expect(facts(follower.update()?.session as Session)).toEqual(before);
    appendFileSync(copy, line.slice(Math.floor(line.length / 2)) + '\n');
    const after = follower.update()?.session as Session;
    expect(facts(after)).toEqual(facts(codexLocator.load(copy).session));
    expect(after.stats.lines).toBe(11);
  });

  it('gives up on a rollout that was truncated or rewritten (the caller reads it whole)', () => {
    const { copy, lines } = emptied(allRollouts()[0] as string);
    appendFileSync(copy, lines.slice(0, 20).join('\n') + '\n');
    const truncated = followRollout(copy);
    truncateSync(copy, statSync(copy).size - 10);
    expect(truncated.update()).toBeNull();

    writeFileSync(copy, lines.slice(0, 20).join('\n') + '\n');
    const rewritten = followRollout(copy);
    writeFileSync(copy, [lines[0], ...lines.slice(5, 40)].join('\n') + '\n');
    expect(rewritten.update()).toBeNull();
  });

  it('is what the locator offers the host', () => {
    expect(codexLocator.follow).toBe(followRollout);
  });
});
