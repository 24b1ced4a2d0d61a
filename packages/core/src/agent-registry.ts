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

  /** Every file name ending any agent's sessions may have (`.jsonl`, `.json`), lower case. */
  sessionExtensions(): string[] {
    const out: string[] = [];
    for (const a of this.agents) for (const e of a.format.source.extensions) if (!out.includes(e)) out.push(e);
    return out;
  }

  /** Whether a file's name may be a session of some agent (its own rule, else its extensions). */
  isSessionFileName(name: string): boolean {
    return this.agents.some((a) => isSessionFileNameOf(a, name));
  }

  /** The agents' labels, joined for people: "Claude Code, Codex CLI or Gemini CLI". */
  labels(conjunction = 'or'): string {
    const names = this.agents.map((a) => a.format.label);
    return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names[names.length - 1]}`;
  }

  /** Every agent's session roots, with the agent each belongs to. */
  roots(env: AgentEnv, home: string): { agent: Agent; root: string }[] {
    const out: { agent: Agent; root: string }[] = [];
    for (const agent of this.agents) for (const root of agent.locator.roots(env, home)) out.push({ agent, root });
    return out;
  }
}

/** Whether a file name may be one of this agent's sessions: its locator's rule, else one of its format's extensions. */
export function isSessionFileNameOf(agent: Agent, name: string): boolean {
  if (agent.locator.isSessionFileName) return agent.locator.isSessionFileName(name);
  const lower = name.toLowerCase();
  return agent.format.source.extensions.some((e) => lower.endsWith(e));
}

/** A file name without the session extension it ends with (any agent's): `<id>.jsonl` → `<id>`. */
export function stripSessionExtension(name: string, extensions: readonly string[]): string {
  const lower = name.toLowerCase();
  const e = [...extensions].sort((a, b) => b.length - a.length).find((x) => lower.endsWith(x));
  return e ? name.slice(0, -e.length) : name;
}
