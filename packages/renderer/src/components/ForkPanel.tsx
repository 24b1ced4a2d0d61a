import { useState } from 'react';
import { visibleText } from '@glassbox/core';
import type { ForkPayload, ForkVerified, ForkWritten, IpcError, SnapshotView } from '@glassbox/contract';
import { ago, humanBytes } from '../format';
import { useApp } from '../store';

/** A fork links to its original; an original lists its forks (from Glassbox's archive). */
export function Lineage({ view }: { view: SnapshotView }) {
  const openSession = useApp((s) => s.openSession);
  const { forkOf, forks } = view.lineage;
  if (!forkOf && forks.length === 0) return null;
  return (
    <div className="repo-line" data-testid="lineage">
      {forkOf ? (
        <>
          <span className="dim">{forkOf.kind === 'undo' ? 'original restored from fork' : 'fork of'}</span>{' '}
          <button type="button" className="link" onClick={() => void openSession(forkOf.path)} title={visibleText(forkOf.path)} data-testid="fork-of">
            {visibleText(forkOf.title ?? forkOf.sessionId)}
          </button>
          <span className="dim"> · written {ago(forkOf.createdAt)}</span>
        </>
      ) : null}
      {forks.length > 0 ? (
        <>
          <span className="dim">{forkOf ? ' · ' : ''}forks</span>
          {forks.map((f) => (
            <button key={f.sessionId} type="button" className="link" onClick={() => void openSession(f.path)} title={visibleText(f.path)} data-testid="fork-link">
              {f.sessionId.slice(0, 8)} ({ago(f.createdAt)})
            </button>
          ))}
        </>
      ) : null}
    </div>
  );
}

type Outcome = { kind: 'verified'; value: ForkVerified } | { kind: 'undone'; value: ForkWritten } | { kind: 'payload'; value: ForkPayload } | { kind: 'error'; error: IpcError };

/** Verify, undo and "show the removed payload" for a fork Glassbox wrote, with failures as the CLI reports them. */
export function ForkActions({ view }: { view: SnapshotView }) {
  const api = useApp((s) => s.api);
  const selectedId = useApp((s) => s.selectedSegmentId);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const forkOf = view.lineage.forkOf;
  if (!forkOf || forkOf.kind !== 'clean') return null;
  const path = view.snapshot.session.path;
  const selected = view.snapshot.segments.find((s) => s.id === selectedId);
  const tombstone = selected?.class === 'tombstone' ? selected : null;

  const run = async (what: 'verify' | 'undo' | 'payload') => {
    setBusy(true);
    setOutcome(null);
    if (what === 'verify') {
      const r = await api.invoke('fork:verify', { path });
      setOutcome(r.ok ? { kind: 'verified', value: r.value } : { kind: 'error', error: r.error });
    } else if (what === 'undo') {
      const r = await api.invoke('fork:write-original', { path });
      setOutcome(r.ok ? { kind: 'undone', value: r.value } : { kind: 'error', error: r.error });
      if (r.ok) void useApp.getState().loadSessions();
    } else if (tombstone) {
      const r = await api.invoke('fork:payload', { path, segmentId: tombstone.id });
      setOutcome(r.ok ? { kind: 'payload', value: r.value } : { kind: 'error', error: r.error });
    }
    setBusy(false);
  };

  return (
    <div className="fork-actions" data-testid="fork-actions">
      <div className="repo-line">
        <span className="dim">this fork</span>
        <button type="button" disabled={busy} onClick={() => void run('verify')} data-testid="fork-verify">
          Verify
        </button>
        <button type="button" disabled={busy} onClick={() => void run('undo')} title="Write the archived original back as a new session; nothing is overwritten" data-testid="fork-undo">
          Undo (restore the original as a new session)
        </button>
        <button
          type="button"
          disabled={busy || !tombstone}
          onClick={() => void run('payload')}
          title={tombstone ? 'Show what this tombstone replaced, from the archive (hash-checked)' : 'Select a tombstone in the treemap first'}
          data-testid="fork-payload"
        >
          Show removed payload
        </button>
      </div>
      {outcome ? <OutcomeView outcome={outcome} /> : null}
    </div>
  );
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'error') {
    return (
      <div className="error-box" role="alert" data-testid="fork-action-error">
        <p>{visibleText(outcome.error.message)}</p>
        {outcome.error.hint ? <p className="dim small">{visibleText(outcome.error.hint)}</p> : null}
      </div>
    );
  }
  if (outcome.kind === 'verified') {
    const v = outcome.value;
    return (
      <div data-testid="fork-verified" data-ok={v.ok}>
        <p className={v.ok ? '' : 'warn'}>
          {v.ok ? 'Every check passes; the fork is byte-identical to what was written' : v.unchanged ? 'A check FAILED' : 'The fork was CHANGED after it was written'}
          {v.appendedLines ? ` (${v.appendedLines} line(s) appended since, by a resume; checked without them)` : ''}. The original is{' '}
          {v.originalOnDisk === 'identical' ? 'still identical to the archived copy' : v.originalOnDisk === 'changed' ? 'changed since (the archived copy is what the fork was made from)' : 'no longer on disk (the archived copy is intact)'}.
        </p>
        <ul className="checks">
          {v.checks.map((c) => (
            <li key={c.id} className={c.ok ? 'pass' : 'fail'} data-ok={c.ok}>
              <span className="mark">{c.ok ? '✓' : '✗'}</span>
              <span>{c.label}</span>
              {c.ok ? null : <span className="dim small detail">{visibleText(c.detail)}</span>}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (outcome.kind === 'undone') {
    const u = outcome.value;
    return (
      <div data-testid="fork-undone">
        <p>
          The original was restored as a new session <code>{u.sessionId}</code> beside the fork; the fork and the original are unchanged.
        </p>
        {u.resumeCommand ? <code>{u.resumeCommand}</code> : <p className="warn">{u.resumeNote}</p>}
      </div>
    );
  }
  const p = outcome.value;
  return (
    <div data-testid="fork-payload-text">
      <p className="dim small">
        Removed payload (sha256 {p.sha256.slice(0, 12)}…, hash-checked, {humanBytes(p.bytes)}){p.truncated ? ' — cut for display' : ''}
      </p>
      <pre className="payload">{visibleText(p.text)}</pre>
    </div>
  );
}
