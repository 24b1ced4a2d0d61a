import { describe, expect, it } from 'vitest';
import { readRequest } from './request';
import { StreamFacts, messageSignature } from './response';
import { RECORDED_RUNS, recordedRun } from '@glassbox/test-support/request-anthropic/recorded';

describe.each(RECORDED_RUNS)('what a reply reports, read as it streams by (%s)', (name) => {
  const run = recordedRun(name);

  it('reads the usage of every reply, however its bytes are cut', () => {
    for (const ex of run.exchanges) {
      if (!ex.reply) throw new Error(`request ${ex.n} has no recorded reply`);
      const whole = new StreamFacts();
      whole.push(ex.reply);
      const facts = whole.finish();
      const cut = new StreamFacts();
      for (let i = 0; i < ex.reply.length; i += 7) cut.push(ex.reply.subarray(i, i + 7));
      expect(cut.finish()).toEqual(facts);
      // The reply's own usage event, as the client would read it.
      const delta = ex.reply.toString('utf8').split('\n').filter((l) => l.startsWith('data:') && l.includes('"message_delta"'))[0] ?? '';
      const usage = (JSON.parse(delta.slice(5)) as { usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number } }).usage;
      expect(facts.usage).toMatchObject({ inputTokens: usage.input_tokens, cacheReadTokens: usage.cache_read_input_tokens, cacheCreationTokens: usage.cache_creation_input_tokens });
      expect(facts.usage?.cacheCreation5mTokens).toBe(usage.cache_creation_input_tokens);
    }
  });

  it("recognises each reply as the next request's last assistant message", () => {
    let matched = 0;
    for (let i = 0; i + 1 < run.exchanges.length; i++) {
      const reply = run.exchanges[i]?.reply;
      const next = run.exchanges[i + 1];
      if (!reply || !next) continue;
      const facts = new StreamFacts();
      facts.push(reply);
      const read = readRequest(next.body);
      if (!read.ok) throw new Error(read.reason);
      const assistants = read.request.messages.filter((m) => m.role === 'assistant');
      const last = assistants[assistants.length - 1];
      if (!last) continue;
      const same = messageSignature(last).join('\n') === facts.finish().signature.join('\n');
      // A new prompt follows the end of a turn; every other request continues the reply before it.
      const prompt = read.request.messages[read.request.messages.length - 1]?.blocks.every((b) => b.type !== 'tool_result') ?? true;
      if (!prompt) expect(same, `request ${next.n}`).toBe(true);
      if (same) matched++;
    }
    expect(matched).toBeGreaterThan(15);
  });
});
