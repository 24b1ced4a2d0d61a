import { useEffect, useState } from 'react';
import { CLASS_COLOUR, visibleText } from '@glassbox/core';
import type { ElisionPreview, IpcError } from '@glassbox/contract';
import { humanTokens } from '../format';
import { useApp } from '../store';
import { ElisionParts } from './ElisionParts';
import { elideArgs, type ElisionChoice } from '../elision-choice';
import './Elision.css';

/**
 * The wizard's elision step: off by default, labelled lossy but recoverable, its thresholds, and a
 * preview of the three largest elisions of this session as the fork would write them (the engine
 * cuts them from the session's own text; head, marker, tail).
 */
export function ElisionStep({ path, protectTail, choice, onChange }: { path: string; protectTail: number | undefined; choice: ElisionChoice; onChange: (c: ElisionChoice) => void }) {
  const api = useApp((s) => s.api);
  const [preview, setPreview] = useState<ElisionPreview | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const args = elideArgs(choice);
  const key = JSON.stringify([path, protectTail, args]);
  // The preview follows the thresholds (a moment after typing stops); an older answer never replaces a newer one.
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      setBusy(true);
      void api.invoke('fork:elision-preview', protectTail === undefined ? { path, elide: args } : { path, elide: args, protectTail }).then((r) => {
        if (!current) return;
        setBusy(false);
        if (r.ok) {
          setPreview(r.value);
          setError(null);
        } else setError(r.error);
      });
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);
  const set = (patch: Partial<ElisionChoice>) => onChange({ ...choice, ...patch });
  return (
    <div className="sheet-body elision-step" data-testid="elision-step">
      <h3>Elide large old results</h3>
      <label className="check">
        <input type="checkbox" checked={choice.on} onChange={(e) => set({ on: e.target.checked })} data-testid="elide-on" />
        <span className="swatch hatched" style={{ background: CLASS_COLOUR.elided }} /> <span className="lossy">Lossy, but recoverable</span>
        <span className="dim"> — off by default</span>
      </label>
      <p className="dim small">
        A tool result over the threshold, older than the protected exchanges, not an error and not a write&apos;s or an edit&apos;s, keeps its first and last whole lines verbatim; the middle is replaced by one marker line and kept in
        Glassbox&apos;s archive, where the agent can recall it (<code>glassbox mcp</code>) and you can show it again. Nothing is summarised; nothing is proven dead.
      </p>
      <fieldset disabled={!choice.on} aria-label="Elision thresholds">
        <label>
          elide results over{' '}
          <input type="number" min={1} value={choice.overTokens} onChange={(e) => set({ overTokens: e.target.value })} aria-label="Elide results over this many tokens" data-testid="elide-over" /> tokens
        </label>
        <label>
          keep at each end up to{' '}
          <input type="number" min={0} value={choice.keepChars} onChange={(e) => set({ keepChars: e.target.value })} aria-label="Characters kept at each end" data-testid="elide-keep-chars" /> characters
        </label>
        <label>
          and{' '}
          <input type="number" min={0} value={choice.keepLines} onChange={(e) => set({ keepLines: e.target.value })} aria-label="Lines kept at each end" data-testid="elide-keep-lines" /> lines
        </label>
      </fieldset>
      <div aria-live="polite" data-testid="elision-summary">
        {busy && !preview ? <p className="dim">Cutting the elisions…</p> : null}
        {preview ? (
          <p>
            {preview.results === 0
              ? `No result in this session is over ${args.overTokens.toLocaleString('en-US')} tokens and old enough: elision would change nothing.`
              : `${preview.results} result${preview.results === 1 ? '' : 's'} over ${preview.elide.overTokens.toLocaleString('en-US')} tokens (${humanTokens(preview.tokens)} tokens) would keep their ends: ${humanTokens(preview.netTokens)} tokens shorter.`}
            {preview.refused > 0 ? <span className="dim"> {preview.refused} more cannot be cut exactly and stay whole{preview.refusedReason ? ` (${visibleText(preview.refusedReason)})` : ''}.</span> : null}
            {choice.on ? '' : <span className="dim"> Turn it on to include it in the fork.</span>}
          </p>
        ) : null}
      </div>
      {error ? (
        <div className="error-box" role="alert" data-testid="elision-error">
          <p>{visibleText(error.message)}</p>
        </div>
      ) : null}
      {preview && preview.samples.length > 0 ? (
        <>
          <h3>
            {preview.samples.length === 1 ? 'The elision' : `The ${preview.samples.length} largest`}, as the fork would write {preview.samples.length === 1 ? 'it' : 'them'}
          </h3>
          {preview.samples.map((s) => (
            <div key={s.segmentId} className="sample" data-testid="elision-sample">
              <h4>
                {visibleText(s.source)} <span className="dim">· line {s.line} · {humanTokens(s.tokens)} → {humanTokens(s.keptTokens)} tokens</span>
              </h4>
              <ElisionParts head={s.head} marker={s.marker} tail={s.tail} />
            </div>
          ))}
        </>
      ) : null}
    </div>
  );
}
