import { useEffect, useRef, useState } from 'react';
import { CLASS_REGISTRY, DEAD_CLASSES, DEFAULT_FORK_CLASSES, formatUsd, type DeadClass, type ExclusionReason, type ForkEconomics, visibleText } from '@glassbox/core';
import type { ForkPreview, ForkWritten, IpcError, JobProgress } from '@glassbox/contract';
import { CLASS_COLOUR, CLASS_LABEL, HATCHED } from '../palette';
import { exact, humanTokens } from '../format';
import { useApp } from '../store';
import { useFocusTrap } from '../focus-trap';
import { ElisionStep } from './ElisionStep';
import { ELISION_OFF, elideArgs, type ElisionChoice } from '../elision-choice';
import { followJob, jobStatus } from '../job-status';

type Step = 'classes' | 'elision' | 'preview' | 'checks' | 'written';
const STEPS: { id: Step; label: string }[] = [
  { id: 'classes', label: 'Classes' },
  { id: 'elision', label: 'Elision' },
  { id: 'preview', label: 'Preview' },
  { id: 'checks', label: 'Checks' },
  { id: 'written', label: 'Written' },
];
/** Elision is its own step (it needs thresholds and a preview of its cuts), not a pick among the classes. */
const ALL: readonly DeadClass[] = DEAD_CLASSES.filter((c) => c !== 'elided');

const EXCLUSION: Record<ExclusionReason, string> = {
  'class-not-chosen': 'class not chosen',
  'protected-tail': 'in the protected last exchanges',
  'not-worth-a-tombstone': 'no bigger than its tombstone',
  'horizon-cost': 'cheaper to keep over the horizon',
  'below-minimum-savings': 'the plan saves too little to be worth a fork',
  'refused-by-fork': 'the fork cannot replace it exactly',
};

/** classes → preview → validation checklist → write → the new session and how to resume it. */
export function ForkWizard() {
  const view = useApp((s) => s.view);
  const api = useApp((s) => s.api);
  const path = useApp((s) => s.selectedPath);
  const close = () => useApp.getState().setWizardOpen(false);
  // After a write, Done shows the new fork: its row selected in the list and its window open.
  const done = () => {
    close();
    if (!written) return;
    const path = written.path;
    void useApp
      .getState()
      .openSession(path)
      .then(() => document.querySelector(`[data-testid=session-row][data-path="${CSS.escape(path)}"]`)?.scrollIntoView({ block: 'nearest' }));
  };
  const [step, setStep] = useState<Step>('classes');
  const [classes, setClasses] = useState<DeadClass[]>([...DEFAULT_FORK_CLASSES]);
  const [preview, setPreview] = useState<ForkPreview | null>(null);
  const [written, setWritten] = useState<ForkWritten | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const [copied, setCopied] = useState(false);
  /** Exchanges at the end that are never touched; empty = the engine's default. */
  const [protect, setProtect] = useState('');
  const protectTail = protect.trim() === '' ? undefined : Math.max(0, Math.min(1000, Math.round(Number(protect)) || 0));
  const [elision, setElision] = useState<ElisionChoice>(ELISION_OFF);
  const chosen: DeadClass[] = elision.on ? [...classes, 'elided'] : classes;
  const forkArgs = () => ({ path: path ?? '', classes: chosen, ...(protectTail === undefined ? {} : { protectTail }), ...(elision.on ? { elide: elideArgs(elision) } : {}) });

  // The write is a host job; its progress and Cancel are shown here, since the jobs bar sits behind this modal.
  const [writing, setWriting] = useState(false);
  const [job, setJob] = useState<JobProgress | null>(null);
  const [cancelAsked, setCancelAsked] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  useEffect(() => {
    if (!writing || !path) return;
    return api.on('job:progress', (p) => setJob((shown) => followJob(shown, p, 'fork-write', path)));
  }, [api, path, writing]);
  // Cancel pressed before the host showed the job (it does after a short delay): sent once the job is known.
  const jobId = job?.id;
  useEffect(() => {
    if (writing && cancelAsked && jobId) void api.invoke('job:cancel', { id: jobId });
  }, [api, writing, cancelAsked, jobId]);

  const sheetRef = useRef<HTMLElement>(null);
  useFocusTrap(sheetRef, close);

  if (!view || !path) return null;
  const byClass = view.snapshot.reclaimable.byClass;

  const runPreview = async () => {
    setBusy(true);
    setError(null);
    const r = await api.invoke('fork:preview', forkArgs());
    setBusy(false);
    if (!r.ok) return setError(r.error);
    setPreview(r.value);
    setStep('preview');
  };
  const write = async () => {
    setBusy(true);
    setError(null);
    setCancelled(false);
    setCancelAsked(false);
    setJob(null);
    setWriting(true);
    const r = await api.invoke('fork:write', forkArgs());
    setWriting(false);
    setBusy(false);
    if (!r.ok && r.error.code === 'cancelled') return setCancelled(true);
    if (!r.ok) return setError(r.error);
    setWritten(r.value);
    setStep('written');
    void useApp.getState().loadSessions();
  };

  return (
    <div className="sheet-backdrop" role="presentation" onClick={close}>
      <section ref={sheetRef} className="sheet" role="dialog" aria-modal="true" aria-labelledby="fork-wizard-title" tabIndex={-1} data-testid="fork-wizard" onClick={(e) => e.stopPropagation()}>
        <div className="sheet-head">
          <h2 id="fork-wizard-title">Fork a cleaned session</h2>
          <ol className="steps" aria-label="Steps">
            {STEPS.map((s, i) => (
              <li key={s.id} aria-current={s.id === step ? 'step' : undefined} className={s.id === step ? 'on' : STEPS.findIndex((x) => x.id === step) > i ? 'done' : ''}>
                {i + 1}. {s.label}
              </li>
            ))}
          </ol>
          <button type="button" className="close" onClick={close} aria-label="Close the fork wizard">
            ×
          </button>
        </div>
        <p className="dim sheet-sub">The original is never changed. A new session file is written beside it, only after every check passes.</p>

        {step === 'classes' ? (
          <div className="sheet-body">
            <h3>What to remove</h3>
            <ul className="class-picks">
              {ALL.map((k) => (
                <li key={k}>
                  <label>
                    <input
                      type="checkbox"
                      checked={classes.includes(k)}
                      onChange={(e) => setClasses(e.target.checked ? [...classes, k] : classes.filter((c) => c !== k))}
                      data-testid={`pick-${k}`}
                    />
                    <span className={`swatch${HATCHED.has(k) ? ' hatched' : ''}`} style={{ background: CLASS_COLOUR[k] }} />
                    <span className="pick-name">{CLASS_LABEL[k]}</span>
                    <span className="dim">
                      {CLASS_REGISTRY[k].evidence === 'inferred' && !view.snapshot.classes.enabled.includes(k)
                        ? `${CLASS_REGISTRY[k].description} — off by default`
                        : byClass[k].segments === 0
                          ? 'none in this session'
                          : `${byClass[k].segments} segment${byClass[k].segments === 1 ? '' : 's'}, ${humanTokens(byClass[k].tokens)} tokens`}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            <label className="protect">
              Never touch the last{' '}
              <input type="number" min={0} max={1000} value={protect} placeholder="3" onChange={(e) => setProtect(e.target.value)} aria-label="Exchanges to protect" data-testid="protect" />{' '}
              exchanges
            </label>
            <p className="dim small">The lossless default removes only what is proven dead. Errors, prose, thinking, the compaction summary and the last exchanges are never touched.</p>
          </div>
        ) : null}

        {step === 'elision' ? <ElisionStep path={path} protectTail={protectTail} choice={elision} onChange={setElision} /> : null}

        {step === 'preview' && preview ? (
          <div className="sheet-body" data-testid="fork-preview">
            <div className="figures">
              <Figure label="before" value={preview.tokensBefore} />
              <Figure label="after" value={preview.tokensAfter} />
              <Figure label="removed" value={preview.reclaimed} />
              <Figure label="in tombstones" value={preview.tombstoneTokens} />
              <Figure label="net saved" value={preview.netReclaimed} strong />
            </div>
            {preview.largest.length > 0 ? (
              <>
                <h3>Largest removals</h3>
                <table className="removals">
                  <tbody>
                    {preview.largest.map((a) => (
                      <tr key={a.segmentId}>
                        <td>
                          <span className="swatch" style={{ background: CLASS_COLOUR[a.class] }} /> {CLASS_LABEL[a.class]}
                        </td>
                        <td className="src" title={a.source}>
                          {a.source}
                        </td>
                        <td className="num">{humanTokens(a.tokensFreed)}</td>
                        <td className="dim num">line {a.line}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            ) : null}
            {preview.reasons.length > 0 ? (
              <ul className="reasons">
                {preview.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            ) : null}
            {preview.excluded.length > 0 ? (
              <>
                <h3>Dead but kept</h3>
                <table className="removals" data-testid="fork-excluded">
                  <tbody>
                    {preview.excluded.map((e) => (
                      <tr key={e.reason} data-reason={e.reason} title={visibleText(e.message)}>
                        <td>{EXCLUSION[e.reason]}</td>
                        <td className="num">
                          {e.segments} segment{e.segments === 1 ? '' : 's'}
                        </td>
                        <td className="num">{humanTokens(e.tokens)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            ) : null}
            {preview.actions > 0 ? <CacheBill e={preview.economics} /> : null}
          </div>
        ) : null}

        {step === 'checks' && preview ? (
          <div className="sheet-body">
            <h3>Checks the fork must pass</h3>
            <ul className="checks" data-testid="fork-checks">
              {preview.checks.map((c) => (
                <li key={c.id} className={c.ok ? 'pass' : 'fail'} data-check={c.id} data-ok={c.ok}>
                  <span className="mark">{c.ok ? '✓' : '✗'}</span>
                  <span>{c.label}</span>
                  {!c.ok || c.detail !== 'passes' ? <span className="dim small detail">{visibleText(c.detail)}</span> : null}
                </li>
              ))}
            </ul>
            {!preview.canWrite ? <p className="warn">Writing is disabled: a check fails. Nothing will be written.</p> : null}
          </div>
        ) : null}

        {step === 'written' && written ? (
          <div className="sheet-body" data-testid="fork-written">
            <h3>Fork written — {humanTokens(written.netReclaimed)} tokens lighter</h3>
            <dl className="written">
              <dt>session id</dt>
              <dd>
                <code data-testid="fork-id">{written.sessionId}</code>
              </dd>
              <dt>file</dt>
              <dd>
                <code>{visibleText(written.path)}</code>
              </dd>
              <dt>resume it</dt>
              {written.resumeCommand ? (
                <dd className="cmd">
                  <code data-testid="resume-command">{visibleText(written.resumeCommand)}</code>
                  <button
                    type="button"
                    onClick={() => {
                      void navigator.clipboard?.writeText(written.resumeCommand ?? '').then(
                        () => setCopied(true),
                        () => setCopied(false),
                      );
                    }}
                  >
                    {copied ? 'Copied' : 'Copy'}
                  </button>
                </dd>
              ) : (
                <dd className="warn" data-testid="resume-none">
                  {visibleText(written.resumeNote ?? '')}
                </dd>
              )}
            </dl>
            {written.resumeCommand && written.resumeNote ? <p className="dim small">{visibleText(written.resumeNote)}</p> : null}
            <p className="dim small">The fork also appears in the session list, linked to this session.</p>
          </div>
        ) : null}

        {step === 'checks' && writing ? (
          <div className="wizard-job" data-testid="fork-write-progress">
            <progress
              max={job && job.total > 0 ? job.total : undefined}
              value={job && job.total > 0 ? Math.min(job.done, job.total) : undefined}
              aria-label={`Writing the fork: ${job ? jobStatus(job) : 'starting…'}`}
            />
            <span className="dim small" aria-hidden="true">
              {cancelAsked ? 'Cancelling: removing what was written…' : job ? jobStatus(job) : 'starting…'}
            </span>
          </div>
        ) : null}
        {/* A live region present before the cancel ends, so the end is announced. */}
        <div role="status">
          {step === 'checks' && cancelled ? (
            <p className="wizard-note" data-testid="fork-cancelled">
              Cancelled: the fork was not written. Nothing was left beside the original, which is unchanged. Write fork tries again.
            </p>
          ) : null}
        </div>

        {error ? (
          <div className="error-box" role="alert" data-testid="fork-error">
            <p>{visibleText(error.message)}</p>
            {error.hint ? <p className="dim small">{visibleText(error.hint)}</p> : null}
          </div>
        ) : null}

        <footer className="sheet-foot">
          {step === 'classes' ? (
            <button type="button" className="primary" onClick={() => setStep('elision')} data-testid="fork-next">
              Next
            </button>
          ) : null}
          {step === 'elision' ? (
            <>
              <button type="button" onClick={() => setStep('classes')}>
                Back
              </button>
              <button type="button" className="primary" disabled={busy || chosen.length === 0} title={chosen.length === 0 ? 'Choose a class or turn elision on first' : undefined} onClick={() => void runPreview()} data-testid="fork-next">
                {busy ? 'Planning…' : 'Preview'}
              </button>
            </>
          ) : null}
          {step === 'preview' ? (
            <>
              <button type="button" onClick={() => setStep('elision')}>
                Back
              </button>
              <button type="button" className="primary" onClick={() => setStep('checks')} data-testid="fork-next">
                Check
              </button>
            </>
          ) : null}
          {step === 'checks' && preview ? (
            <>
              <button type="button" onClick={() => setStep('preview')} disabled={writing}>
                Back
              </button>
              {writing ? (
                <button
                  type="button"
                  disabled={cancelAsked || (job !== null && !job.cancellable)}
                  title={job !== null && !job.cancellable ? 'The fork is past the point where stopping would help' : undefined}
                  onClick={() => setCancelAsked(true)}
                  data-testid="fork-cancel"
                >
                  {cancelAsked ? 'Cancelling…' : 'Cancel writing'}
                </button>
              ) : null}
              <button type="button" className="primary" disabled={busy || !preview.canWrite} title={busy ? 'Writing…' : preview.canWrite ? undefined : 'A check failed or there is nothing to remove: see above'} onClick={() => void write()} data-testid="fork-write">
                {busy ? 'Writing…' : 'Write fork'}
              </button>
            </>
          ) : null}
          {step === 'written' ? (
            <button type="button" className="primary" onClick={done}>
              Done
            </button>
          ) : null}
        </footer>
      </section>
    </div>
  );
}

/** When to fork: the prompt cache's bill, in the user's local time. */
function CacheBill({ e }: { e: ForkEconomics }) {
  const usd = (v: number | null, tokens: number) => (v === null ? `${humanTokens(tokens)} token-eq.` : formatUsd(v));
  const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const since = (iso: string) => {
    const min = Math.round((Date.parse(e.at) - Date.parse(iso)) / 60_000);
    return min < 90 ? `${Math.max(1, min)} min` : min < 2880 ? `${Math.round(min / 60)} h` : `${Math.round(min / 1440)} days`;
  };
  const extra = e.fork.nextRequestUsd !== null && e.original.nextRequestUsd !== null ? e.fork.nextRequestUsd - e.original.nextRequestUsd : null;
  const perSaving = e.original.perRequestUsd !== null && e.fork.perRequestUsd !== null ? e.original.perRequestUsd - e.fork.perRequestUsd : null;
  let lead: string;
  if (e.cacheWarmUntil) {
    lead = `Cache warm until ${time(e.cacheWarmUntil)} — fork after that and it costs nothing extra.`;
    if (e.breakEvenRequests === 1) lead += ' Forking now is cheaper from the first request anyway.';
    else lead += ` Forking now costs ${extra === null ? 'more' : `${formatUsd(extra)} more`} on the next request and ${e.breakEvenRequests === null ? 'never pays back' : `pays back after ${e.breakEvenRequests} requests`}.`;
  } else if (e.cacheExpiredAt) {
    lead = `The cache expired ${since(e.cacheExpiredAt)} ago: forking now is cheaper from the first request${perSaving === null ? '' : ` (saves ${formatUsd(perSaving)} per request)`}.`;
  } else lead = 'The time of the last response is unknown: the cache is taken as expired, so forking is cheaper from the first request.';
  return (
    <div className="cache-bill" data-testid="cache-bill">
      <h3>Prompt cache</h3>
      <p data-testid="cache-advice">{lead}</p>
      <table className="removals">
        <thead>
          <tr>
            <th />
            <th className="num">next request</th>
            <th className="num">each after</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>continue the original</td>
            <td className="num">{usd(e.original.nextRequestUsd, e.original.nextRequestTokens)}</td>
            <td className="num">{usd(e.original.perRequestUsd, e.original.perRequestTokens)}</td>
          </tr>
          <tr>
            <td>resume the fork</td>
            <td className="num">{usd(e.fork.nextRequestUsd, e.fork.nextRequestTokens)}</td>
            <td className="num">{usd(e.fork.perRequestUsd, e.fork.perRequestTokens)}</td>
          </tr>
        </tbody>
      </table>
      <details className="dim small">
        <summary>How this is worked out (estimated: {humanTokens(e.prefixTokens)} tokens before the first change stay cached)</summary>
        <ul>
          {e.model.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function Figure({ label, value, strong }: { label: string; value: number; strong?: boolean }) {
  return (
    <div className={`figure${strong ? ' strong' : ''}`} title={`${exact(value)} tokens`}>
      <div className="fig-num">{humanTokens(value)}</div>
      <div className="dim small">tokens {label}</div>
    </div>
  );
}
