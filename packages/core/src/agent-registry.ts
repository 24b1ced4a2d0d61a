import type { Agent, AgentEnv, Recognition } from './agent';

/** The agents a process knows, in order of preference. Built once by the composition root. */
export class AgentRegistry {
  constructor(readonly agents: readonly Agent[]) {
    if (agents.length === 0) throw new Error('an agent registry needs at least one agent');
  }

  /** The agent with this id; the first one for an unknown id (an index written by an older version). */
  byId(id: string | null | undefined): Agent {
    return this.agents.find((a) => a.format.id === id) ?? (this.agents[0] as Agent);
  }

  has(id: string): boolean {
    return this.agents.some((a) => a.format.id === id);
  }

  /**
   * Which agent wrote a file, from its first lines: the first that says yes. When none does, `what`
   * collects what the others recognised it as ("a Codex CLI rollout"), for the message.
   */
  recognise(head: readonly string[]): { agent: Agent | null; what: string[] } {
    const what: string[] = [];
    for (const agent of this.agents) {
      const r: Recognition = agent.format.recognise(head);
      if (r.verdict === 'yes') return { agent, what: [] };
      if (r.verdict === 'no' && r.what && !what.includes(r.what)) what.push(r.what);
    }
    return { agent: null, what };
  }

  /** Every agent's session roots, with the agent each belongs to. */
  roots(env: AgentEnv, home: string): { agent: Agent; root: string }[] {
    const out: { agent: Agent; root: string }[] = [];
    for (const agent of this.agents) for (const root of agent.locator.roots(env, home)) out.push({ agent, root });
    return out;
  }
}
