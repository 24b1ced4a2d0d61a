import { useState } from 'react';
import { visibleText } from '@glassbox/core';
import type { ForkPayload, IpcError, SegmentElision } from '@glassbox/contract';
import { humanBytes } from '../format';
import { useApp } from '../store';
import './Elision.css';

/** Head, marker and tail of an elided result, each as it is (or would be) in the fork. */
export function ElisionParts({ head, marker, tail, testid }: { head: string; marker: string; tail: string; testid?: string }) {
  return (
    <div className="elision-parts" data-testid={testid}>
      <span className="part-label">head, kept verbatim ({head.length.toLocaleString('en-US')} characters)</span>
      <pre data-testid="elision-head" tabIndex={0}>{visibleText(head)}</pre>
      <span className="part-label">marker, in place of the middle</span>
      <pre className="marker" data-testid="elision-marker">{visibleText(marker)}</pre>
      <span className="part-label">tail, kept verbatim ({tail.length.toLocaleString('en-US')} characters)</span>
      <pre data-testid="elision-tail" tabIndex={0}>{visibleText(tail)}</pre>
    </div>
  );
}

/** The hex sha-256 of a text, in the browser (Web Crypto); null where it is not offered. */
async function sha256Hex(text: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

type Middle = { payload: ForkPayload; hashHere: string | null } | { error: IpcError };

/**
 * The inspector's section for an elided result: its parts, and for a fork's elision "Show the middle",
 * which reads the middle back from the archive (the host checks it against its hash; the window checks
 * again that it is the one the marker names).
 */
export function ElidedSection({ path, segmentId, elision }: { path: string; segmentId: string; elision: SegmentElision }) {
  const api = useApp((s) => s.api);
  const [middle, setMiddle] = useState<Middle | null>(null);
  const [busy, setBusy] = useState(false);
  const show = async () => {
    setBusy(true);
    const r = await api.invoke('fork:payload', { path, segmentId });
    setMiddle(r.ok ? { payload: r.value, hashHere: r.value.truncated ? null : await sha256Hex(r.value.text) } : { error: r.error });
    setBusy(false);
  };
  const got = middle && 'payload' in middle ? middle : null;
  const matches = got !== null && got.payload.kind === 'elided-middle' && got.payload.sha256.startsWith(elision.sha256Prefix) && (got.hashHere === null || got.hashHere === got.payload.sha256);
  return (
    <section className="insp-section" data-testid="elided-section">
      <h4>Elided</h4>
      <p className="dim small">
        Lossy, recoverable: {elision.middleLines.toLocaleString('en-US')} lines ({elision.middleChars} characters) {elision.inFork ? 'left out of this fork, kept in the archive' : 'a fork would leave out'}.
      </p>
      <ElisionParts head={elision.head} marker={elision.marker} tail={elision.tail} />
      {elision.inFork ? (
        <button type="button" disabled={busy || got !== null} onClick={() => void show()} data-testid="show-middle" title={got ? 'The middle is shown below' : 'Read the middle back from the archive (hash-checked)'}>
          {busy ? 'Reading the archive…' : 'Show the middle'}
        </button>
      ) : (
        <p className="dim small">The middle is still in this session; a fork with elision chosen would archive it and write the marker above.</p>
      )}
      {middle && 'error' in middle ? (
        <div className="error-box" role="alert" data-testid="middle-error">
          <p>{visibleText(middle.error.message)}</p>
        </div>
      ) : null}
      {got ? (
        <div data-testid="middle">
          <p className={matches ? 'dim small' : 'warn'} data-testid="middle-check" data-ok={matches}>
            {matches
              ? `The middle from the archive: sha256 ${got.payload.sha256.slice(0, 12)}…, the hash the marker names${got.hashHere ? ', checked here too' : ''} (${humanBytes(got.payload.bytes)}${got.payload.truncated ? ', cut for display' : ''}).`
              : `The archive answered with sha256 ${got.payload.sha256.slice(0, 12)}…, which is not the middle this marker names (${elision.sha256Prefix}).`}
          </p>
          <pre className="middle" data-testid="middle-text" tabIndex={0}>{visibleText(got.payload.text)}</pre>
        </div>
      ) : null}
    </section>
  );
}
