import { useApp } from '../../store';

/** What the list says when it shows no row: a search that matched nothing. */
export function NoMatch({ query, total }: { query: string; total: number }) {
  return (
    <div className="empty-state" data-testid="no-match">
      No session matches “{query}”{total ? ` among ${total}` : ''}. Search looks in titles, projects, folders, prompts, file paths and commands.
    </div>
  );
}

/** The list's own line when the machine has no session; the centre says where it looked (EmptySessions). */
export function NoSessions() {
  return (
    <div className="empty-state dim" data-testid="no-sessions">
      No sessions yet: where Glassbox looked, and samples to explore, are on the right.
    </div>
  );
}

/** "Claude Code, Codex or Gemini CLI", from the agents the host searched. */
function agentList(agents: readonly string[]): string {
  if (agents.length <= 1) return agents[0] ?? 'agent';
  return `${agents.slice(0, -1).join(', ')} or ${agents[agents.length - 1] ?? ''}`;
}

/**
 * The centre when the machine has no session: which agents' folders were searched, how to point
 * Glassbox elsewhere, and the bundled samples in plain words.
 */
export function EmptySessions() {
  const roots = useApp((s) => s.roots);
  const agents = useApp((s) => s.agents);
  const samples = useApp((s) => s.samples);
  const openSession = useApp((s) => s.openSession);
  return (
    <div className="empty-sessions" data-testid="empty-sessions">
      <h2>No sessions found</h2>
      <p>
        Glassbox found no {agentList(agents)} session on this machine. It looked in:
      </p>
      <ul className="roots">
        {roots.map((r) => (
          <li key={r}>
            <code>{r}</code>
          </li>
        ))}
      </ul>
      <p className="dim">
        Sessions kept elsewhere: start Glassbox with <code>CLAUDE_CONFIG_DIR</code>, <code>CODEX_HOME</code> or <code>GEMINI_CLI_HOME</code> set to that folder, or drop a session file anywhere on this window.
      </p>
      {samples.length > 0 ? (
        <>
          <h3>Or explore a sample session</h3>
          <ul className="samples">
            {samples.map((s) => (
              <li key={s.path}>
                <button type="button" className="link" onClick={() => void openSession(s.path)} data-testid="sample" data-name={s.name}>
                  {s.title}
                </button>
                <div className="dim small">{s.description}</div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
