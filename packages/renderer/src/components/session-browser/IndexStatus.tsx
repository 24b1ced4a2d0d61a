/** The line under the list: indexing progress, then how many sessions are indexed or match. */
export function IndexStatus({ done, total, phase, stage, sessions, shown, query }: { done: number; total: number; phase: string; stage: string | undefined; sessions: number; shown: number; query: string }) {
  if (phase === 'idle') return <div className="index-status">Starting…</div>;
  if (phase === 'scanning') return <div className="index-status">Looking for sessions…</div>;
  if (phase === 'indexing') {
    return (
      <div className="index-status" role="status">
        <span>
          {stage ?? 'Indexing'} {done}/{total}
        </span>
        <progress max={total || 1} value={done} aria-label="Indexing progress" />
      </div>
    );
  }
  return (
    <div className="index-status" role="status">
      {query ? `${shown === 0 ? 'No match' : `${shown} match${shown === 1 ? '' : 'es'}`} among ${sessions} sessions` : `${sessions} session${sessions === 1 ? '' : 's'} indexed · watching for changes`}
    </div>
  );
}
