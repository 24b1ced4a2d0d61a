import { useEffect, useRef, useState } from 'react';
import { ResumeLine } from './ResumeLine';
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

type Outcome = { kind: 'verified'; value: ForkVerified } | { kind: 'written-original'; value: ForkWritten } | { kind: 'payload'; value: ForkPayload } | { kind: 'error'; error: IpcError };

/**
 * Verify, undo, "write the original back" and "show the removed payload" for a fork Glassbox wrote,
 * with failures as the CLI reports them. Undo asks first, then moves the fork into the archive and
 * opens its original.
 */
export function ForkActions({ view }: { view: SnapshotView }) {
  const api = useApp((s) => s.api);
  const selectedId = useApp((s) => s.selectedSegmentId);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const forkOf = view.lineage.forkOf;
  if (!forkOf || forkOf.kind !== 'clean') return null;
  const path = view.snapshot.session.path;
  const selected = view.snapshot.segments.find((s) => s.id === selectedId);
  const tombstone = selected?.class === 'tombstone' ? selected : null;

  const run = async (what: 'verify' | 'write-original' | 'payload') => {
    setBusy(true);
    setOutcome(null);
    if (what === 'verify') {
      const r = await api.invoke('fork:verify', { path });
      setOutcome(r.ok ? { kind: 'verified', value: r.value } : { kind: 'error', error: r.error });
    } else if (what === 'write-original') {
      const r = await api.invoke('fork:write-original', { path });
      setOutcome(r.ok ? { kind: 'written-original', value: r.value } : { kind: 'error', error: r.error });
      if (r.ok) void useApp.getState().loadSessions();
    } else if (tombstone) {
      const r = await api.invoke('fork:payload', { path, segmentId: tombstone.id });
      setOutcome(r.ok ? { kind: 'payload', value: r.value } : { kind: 'error', error: r.error });
    }
    setBusy(false);
  };

  const undo = async () => {
    setBusy(true);
    setOutcome(null);
    const r = await api.invoke('fork:remove', { path });
    setBusy(false);
    setConfirming(false);
    if (!r.ok) return setOutcome({ kind: 'error', error: r.error });
    const app = useApp.getState();
    await app.loadSessions();
    await app.openSession(r.value.originalPath);
    app.notify({
      kind: 'info',
      message: `Fork ${r.value.sessionId.slice(0, 8)} undone: its ${r.value.files} file${r.value.files === 1 ? '' : 's'} moved into Glassbox's archive; the project folder is as it was before the fork.`,
      hint: `To bring it back: ${r.value.restoreCommand}`,
    });
  };

  const why = busy ? 'Wait for the running fork action to finish' : undefined;
  return (
    <div className="fork-actions" data-testid="fork-actions">
      <div className="repo-line">
        <span className="dim">this fork</span>
        <button type="button" disabled={busy} title={why} onClick={() => void run('verify')} data-testid="fork-verify">
          Verify
        </button>
        <button type="button" disabled={busy || confirming} title={why ?? (confirming ? 'Answer the question below first' : 'Take this fork off the disk: it moves, with its side files, into the archive')} onClick={() => setConfirming(true)} data-testid="fork-undo">
          Undo this fork…
        </button>
        <button type="button" disabled={busy} title={why ?? 'Write the archived original back as a new session beside the fork; nothing is overwritten'} onClick={() => void run('write-original')} data-testid="fork-write-original">
          Write the original back as a new session
        </button>
        <button
          type="button"
          disabled={busy || !tombstone}
          onClick={() => void run('payload')}
          title={why ?? (tombstone ? 'Show what this tombstone replaced, from the archive (hash-checked)' : 'Select a tombstone in the treemap first')}
          data-testid="fork-payload"
        >
          Show removed payload
        </button>
      </div>
      {confirming ? <UndoConfirm forkId={view.snapshot.session.id} busy={busy} onConfirm={() => void undo()} onCancel={() => setConfirming(false)} /> : null}
      {outcome ? <OutcomeView outcome={outcome} /> : null}
    </div>
  );
}

/** The question before Undo: what moves where, what stays, how it comes back. Esc or Cancel keeps the fork. */
function UndoConfirm({ forkId, busy, onConfirm, onCancel }: { forkId: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div
      className="undo-confirm"
      role="group"
      aria-labelledby="undo-confirm-title"
      aria-describedby="undo-confirm-body"
      data-testid="undo-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <p id="undo-confirm-title">
        <strong>Undo this fork?</strong>
      </p>
      <p id="undo-confirm-body" className="small">
        The fork and its side files move into Glassbox&apos;s archive, so its project folder is as it was before the fork. The original is left as it was. <code>glassbox restore {forkId}</code> brings the fork back.
      </p>
      <div className="repo-line">
        <button ref={confirm} type="button" disabled={busy} title={busy ? 'Undoing…' : undefined} onClick={onConfirm} data-testid="undo-confirm-yes">
          {busy ? 'Undoing…' : 'Undo the fork'}
        </button>
        <button type="button" onClick={onCancel} data-testid="undo-confirm-cancel">
          Keep it
        </button>
      </div>
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
  if (outcome.kind === 'written-original') {
    const u = outcome.value;
    return (
      <div data-testid="fork-original-written">
        <p>
          The original was written back as a new session <code>{u.sessionId}</code> beside the fork; the fork and the original are unchanged.
        </p>
        <ResumeLine command={u.resumeCommand} note={u.resumeNote} />
      </div>
    );
  }
  const p = outcome.value;
  return (
    <div data-testid="fork-payload-text">
      <p className="dim small">
        {p.kind === 'elided-middle' ? 'Elided middle (its head and tail are still in the fork;' : 'Removed payload ('} sha256 {p.sha256.slice(0, 12)}…, hash-checked, {humanBytes(p.bytes)}){p.truncated ? ' — cut for display' : ''}
      </p>
      <pre className="payload">{visibleText(p.text)}</pre>
    </div>
  );
}
