/** The agent a session belongs to, as a short mark its client's users know (the full name on hover and to screen readers). */
export function AgentBadge({ agent }: { agent: string }) {
  const short = SHORT[agent] ?? agent;
  return (
    <span className={`agent-badge agent-${slug(agent)}`} title={`a ${agent} session`} data-testid="agent-badge">
      {short}
    </span>
  );
}

/** The clients' names, shortened where the list is narrow ("Codex CLI" reads as Codex, "Gemini CLI" as Gemini). */
const SHORT: Record<string, string> = { 'Codex CLI': 'Codex', 'Gemini CLI': 'Gemini' };

function slug(agent: string): string {
  return agent.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
