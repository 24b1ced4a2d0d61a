/** The agent a session belongs to, as a short mark its client's users know (the full name on hover and to screen readers). */
export function AgentBadge({ agent }: { agent: string }) {
  const short = SHORT[agent] ?? agent;
  return (
    <span className={`agent-badge agent-${slug(agent)}`} title={`a ${agent} session`} data-testid="agent-badge">
      {short}
    </span>
  );
}

/** The clients' names, shortened where the list is narrow ("Gemini CLI" reads as Gemini). */
const SHORT: Record<string, string> = { 'Gemini CLI': 'Gemini' };

function slug(agent: string): string {
  return agent.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
