import { useState } from 'react';
import type { SessionRow } from '@glassbox/contract';
import { MAX_KEEP_PATHS } from '@glassbox/contract';
import { expiringSoon } from '../../retention-labels';
import { useApp } from '../../store';

/** From this many sessions deleted soon, the list says it once at the top instead of on each row only. */
const MANY = 3;

/**
 * One line over the list when many sessions are deleted by their client within the week and the
 * archive does not hold them as they are, with the action that saves them all.
 */
export function ExpiringBanner({ rows }: { rows: readonly SessionRow[] }) {
  const api = useApp((s) => s.api);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const soon = expiringSoon(rows);
  if (soon.length < MANY && !outcome) return null;
  const clients = [...new Set(soon.map((r) => r.retention?.client ?? 'their client'))].join(' and ');
  const keepAll = async () => {
    setBusy(true);
    const r = await api.invoke('session:keep', { paths: soon.slice(0, MAX_KEEP_PATHS).map((s) => s.path) });
    setBusy(false);
    if (!r.ok) return setOutcome(r.error.message);
    const kept = r.value.outcomes.filter((o) => o.status !== 'failed').length;
    const failed = r.value.outcomes.length - kept;
    setOutcome(`${kept} kept in Glassbox’s archive${failed ? `; ${failed} could not be kept` : ''}.`);
    void useApp.getState().loadSessions();
  };
  return (
    // Announced politely, but not a second "status" beside the list's own line.
    <div className="expiring" aria-live="polite" data-testid="expiring-banner">
      {soon.length >= MANY ? (
        <>
          <span>
            ⚠ {soon.length} sessions are deleted by {clients} within a week.
          </span>
          <button type="button" disabled={busy} onClick={() => void keepAll()} data-testid="keep-expiring" title="Store a copy of each in Glassbox’s archive; the sessions stay where they are">
            {busy ? 'Keeping…' : 'Keep them'}
          </button>
        </>
      ) : null}
      {outcome ? <span className="dim">{outcome}</span> : null}
    </div>
  );
}
