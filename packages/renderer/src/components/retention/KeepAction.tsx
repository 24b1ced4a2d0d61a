import { useState } from 'react';
import { visibleText } from '@glassbox/core';
import type { IpcError, KeepOutcome, RestoredView, SnapshotView } from '@glassbox/contract';
import { humanBytes } from '../../format';
import { useApp } from '../../store';
import { RetentionMark } from './RetentionMark';

type Outcome = { kind: 'kept'; value: KeepOutcome } | { kind: 'error'; error: IpcError };

/**
 * The window's line about the session's clean-up by its client: when it goes, whether Glassbox keeps
 * it, and the action that fits — Keep (store it, or the changes since, in the archive), or Restore for
 * the archive's copy of a session the client deleted (writes it back where it was, never over a file).
 */
export function KeepAction({ view }: { view: SnapshotView }) {
  const api = useApp((s) => s.api);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const keeping = view.keeping;
  if (!keeping || (!keeping.retention && !keeping.kept)) return null;
  const path = view.snapshot.session.path;
  const gone = keeping.kept?.gone ?? null;

  const keep = async () => {
    setBusy(true);
    setOutcome(null);
    const r = await api.invoke('session:keep', { paths: [path] });
    const first = r.ok ? r.value.outcomes[0] : undefined;
    setOutcome(!r.ok ? { kind: 'error', error: r.error } : first?.status === 'failed' ? { kind: 'error', error: { code: 'refused', message: first.message ?? 'It could not be kept.' } } : first ? { kind: 'kept', value: first } : null);
    setBusy(false);
    void useApp.getState().reloadView();
  };
  const restore = async () => {
    setBusy(true);
    setOutcome(null);
    const r = await api.invoke('session:restore', { path });
    setBusy(false);
    if (!r.ok) return setOutcome({ kind: 'error', error: r.error });
    // The window moves to the restored session; the notice stays to say where it is and how to resume it.
    useApp.getState().notify({ kind: 'info', message: `Restored to ${r.value.path}.`, hint: restoredHint(r.value) });
    void useApp.getState().openSession(r.value.path);
  };

  return (
    <div className="repo-line keep-line" data-testid="keep-line">
      <RetentionMark retention={keeping.retention} kept={keeping.kept} />
      {gone ? (
        <button type="button" disabled={busy} onClick={() => void restore()} title={`Write it back to ${keeping.kept?.originalPath ?? 'where it was'}; nothing is overwritten`} data-testid="restore">
          Restore
        </button>
      ) : (
        <button type="button" disabled={busy || keeping.kept?.current === true} onClick={() => void keep()} title="Store this session (and its subagent, tool-result and checkpoint files) in Glassbox's archive" data-testid="keep">
          {keeping.kept ? (keeping.kept.current ? 'Kept' : 'Keep the changes') : 'Keep'}
        </button>
      )}
      {outcome?.kind === 'kept' ? (
        <span className="ok" role="status" data-testid="keep-outcome">
          {outcome.value.status === 'kept' ? `Kept: ${humanBytes(outcome.value.writtenBytes)} written for ${humanBytes(outcome.value.bytes)}.` : 'Already in the archive.'}
        </span>
      ) : null}
      {outcome?.kind === 'error' ? (
        <span className="warn" role="alert" data-testid="keep-error">
          {visibleText(outcome.error.message)}
          {outcome.error.hint ? ` ${visibleText(outcome.error.hint)}` : ''}
        </span>
      ) : null}
    </div>
  );
}

function restoredHint(r: RestoredView): string {
  const resume = r.resumeCommand ? `Resume it with: ${r.resumeCommand}` : (r.resumeNote ?? '');
  return `${resume} Its client counts its clean-up period from now.`.trim();
}
