import { describe, expect, it } from 'vitest';
import type { Agent, AgentFormat, Recognition } from './agent';
import { AgentRegistry } from './agent-registry';

// The registry's own logic (order, fallbacks) with two minimal formats; the real adapters are tested
// against real transcripts in their packages and through packages/agents.
function agent(id: string, recognise: (head: readonly string[]) => Recognition): Agent {
  return { format: { id, label: id, recognise } as unknown as AgentFormat, locator: { roots: () => [`/${id}`] } as unknown as Agent['locator'] };
}

const a = agent('a', (h) => (h.some((l) => l.includes('"a"')) ? { verdict: 'yes' } : { verdict: 'no', what: 'not an a' }));
const b = agent('b', (h) => (h.some((l) => l.includes('"b"')) ? { verdict: 'yes' } : { verdict: 'unknown' }));

describe('agent registry', () => {
  const registry = new AgentRegistry([a, b]);

  it('recognises a file by the first agent that says yes', () => {
    expect(registry.recognise(['{"b":1}']).agent).toBe(b);
    expect(registry.recognise(['{"a":1}', '{"b":1}']).agent).toBe(a);
  });

  it('says what others took a file for when no agent claims it', () => {
    expect(registry.recognise(['{"c":1}'])).toEqual({ agent: null, what: ['not an a'] });
  });

  it('finds agents by id, and falls back to the first for an unknown id', () => {
    expect(registry.byId('b')).toBe(b);
    expect(registry.byId('zzz')).toBe(a);
    expect(registry.has('b')).toBe(true);
    expect(registry.has('zzz')).toBe(false);
  });

  it("lists every agent's roots with their agent", () => {
    expect(registry.roots({}, '/home').map((r) => [r.agent.format.id, r.root])).toEqual([['a', '/a'], ['b', '/b']]);
  });

  it('refuses to be empty', () => {
    expect(() => new AgentRegistry([])).toThrow(/at least one agent/);
  });
});
