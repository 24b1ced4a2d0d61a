import { useApp } from '../../store';

/** What the list says when it shows no row: a search that matched nothing. */
export function NoMatch({ query, total }: { query: string; total: number }) {
  return (
    <div className="empty-state" data-testid="no-match">
      No session matches “{query}”{total ? ` among ${total}` : ''}. Search looks in titles, projects, folders, prompts, file paths and commands.
    </div>
  );
}

/** What the list says when the machine has no session: where it looked, how to point it elsewhere, samples. */
export function EmptySessions() {
  const roots = useApp((s) => s.roots);
  const samples = useApp((s) => s.samples);
  const openSession = useApp((s) => s.openSession);
  return (
    <div className="empty-state" data-testid="empty-sessions">
      <p>
        <strong>No sessions found.</strong>
      </p>
      <p className="dim">Looked in:</p>
      <ul className="roots">
        {roots.map((r) => (
          <li key={r}>
            <code>{r}</code>
          </li>
        ))}
      </ul>
      <p className="dim">
        Point Glassbox elsewhere with <code>CLAUDE_CONFIG_DIR</code>, <code>CODEX_HOME</code> or <code>GEMINI_CLI_HOME</code>, or drop a session file anywhere on this window.
      </p>
      {samples.length > 0 ? (
        <>
          <p>Or explore a sample session:</p>
          <ul className="samples">
            {samples.map((s) => (
              <li key={s.path}>
                <button type="button" className="link" onClick={() => void openSession(s.path)} data-testid="sample">
                  {s.name}
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
