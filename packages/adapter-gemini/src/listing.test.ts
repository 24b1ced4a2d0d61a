// What the session list shows for a chat, as `gemini --resume` / `--list-sessions` list it: its
// summary when it has one, else the first prompt the chat recorded — for a 0.61 log, also when a
// later rewrite folded that prompt away (masking merges it into the session context the client
// replaces on resume).
import { describe, expect, it } from 'vitest';
import { GeminiSummarizer } from './summary';
import { fixture, fixtures, linesOf, mainChat } from '@glassbox/test-support/gemini/corpus';

function listed(path: string) {
  const s = new GeminiSummarizer(null, false);
  for (const l of linesOf(path)) s.line(l);
  return s.finish().state;
}

describe('the list’s first prompt is the first prompt the client was given', () => {
  it.each(fixtures().map((f) => [`${f.scenario} v${f.version}`, f] as const))('%s', (_n, f) => {
    const first = f.manifest.steps.find((s) => s.prompt !== undefined)?.prompt as string;
    expect(listed(mainChat(f)).firstPrompt?.trim()).toBe(first.slice(0, 200).trim());
  });

  it('04 v0.61: the first prompt is not in the history the client resumes, and still listed', () => {
    const f = fixture('04-output-masking', '0.61');
    expect(listed(mainChat(f)).firstPrompt).toBe('List the nine number batches for the stock audit.');
  });
});
