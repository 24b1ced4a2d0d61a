// Cost per turn on the real chats: each prompt's replies (the analysis's `turns`) against the
// requests the client itself counted for that prompt (`--output-format json` of the same step).
// A 0.61 log that was resumed holds its whole history in one full-replace record, where replies
// share the prompts' line; masking and compression rewrite it under new ids. The turns still come
// out as the client counted them.
import { computeCost } from '@glassbox/analysis';
import { describe, expect, it } from 'vitest';
import { parseChatLines } from './parse-lines';
import { GEMINI_PRICES } from './prices';
import { fixture, fixtures, linesOf, mainChat, type Fixture } from '@glassbox/test-support/gemini/corpus';

/** The client's requests of the main agent for each step that made any (a step may only edit files). */
function clientRequestsPerPrompt(f: Fixture): number[] {
  return f.manifest.steps.map((step) => Object.values(step.stats?.models ?? {}).reduce((n, m) => n + (m.roles ? (m.roles['main']?.totalRequests ?? 0) : m.api.totalRequests), 0)).filter((n) => n > 0);
}

function report(f: Fixture) {
  const path = mainChat(f);
  return computeCost(parseChatLines(linesOf(path), { path }), [], GEMINI_PRICES);
}

describe('cost per turn equals the client’s requests per prompt', () => {
  const exact = fixtures().filter((f) => f.version !== '0.28');
  it.each(exact.map((f) => [`${f.scenario} v${f.version}`, f] as const))('%s', (_n, f) => {
    const r = report(f);
    expect(r.turns.map((t) => t.responses).filter((n) => n > 0)).toEqual(clientRequestsPerPrompt(f));
    expect(r.turns.reduce((n, t) => n + (t.cost ?? 0), 0)).toBeCloseTo(r.total.cost ?? -1, 10);
  });

  it('0.61, resumed: the first prompt’s 17 replies, rewritten into the resume’s full replace, are its turn', () => {
    const r = report(fixture('01-reads-edits-gone', '0.61'));
    expect(r.turns.map((t) => [t.turn, t.prompt.slice(0, 12), t.responses])).toEqual([
      [1, 'Tidy up the ', 17],
      [2, 'I changed a ', 2],
    ]);
  });

  it('0.61, compressed: the turn summarised away is before the first prompt; the kept turns are matched back through their calls', () => {
    const r = report(fixture('03-compression', '0.61'));
    expect(r.turns.map((t) => [t.turn, t.responses])).toEqual([[0, 5], [1, 2], [2, 3], [3, 1]]);
  });

  it('0.61, masked: the masking rewrite merged the first prompt into the session context the client replaces on resume, so its replies are before the first prompt', () => {
    const r = report(fixture('04-output-masking', '0.61'));
    expect(r.turns.map((t) => [t.turn, t.responses])).toEqual([[0, 11], [1, 1]]);
  });

  it('0.28 merges text-less replies: fewer replies than requests, every one in a turn', () => {
    for (const f of fixtures().filter((x) => x.version === '0.28')) {
      const r = report(f);
      expect(r.turns.reduce((n, t) => n + t.responses, 0), f.scenario).toBe(r.total.responses);
      expect(r.total.responses, f.scenario).toBeLessThan(clientRequestsPerPrompt(f).reduce((a, b) => a + b, 0));
    }
  });
});
