import { useEffect, useRef, useState } from 'react';
import { visibleText } from '@glassbox/core';
import type { JobProgress } from '@glassbox/contract';
import { useApp } from '../store';
import { jobStatus } from '../job-status';
import './JobsBar.css';

/** A job that failed or was cancelled stays in view this long, saying how it ended; one that is done goes at once (its result is in view). */
const LINGER_MS = 2500;

/**
 * The long jobs of the engine (opening a big session, indexing, writing a fork), each with its
 * progress and a Cancel button, at the foot of the session list: in the layout, so it never covers a
 * control (a floating toast covered the chart, and at 800 px the inspector). Self-contained: it listens to `job:progress` and asks `job:cancel`;
 * the request that started a job answers on its own (a cancelled one with code `cancelled`).
 */
export function JobsBar() {
  const api = useApp((s) => s.api);
  const synced = useApp((s) => s.syncedJobs);
  const [jobs, setJobs] = useState<Record<string, JobProgress>>({});
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  // Jobs heard ending: a host state read before the end (and delivered after it) must not bring one back.
  const ended = useRef(new Set<string>());

  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const off = api.on('job:progress', (p) => {
      if (p.state === 'done') {
        ended.current.add(p.id);
        setJobs(({ [p.id]: _done, ...rest }) => rest);
        return;
      }
      setJobs((all) => ({ ...all, [p.id]: p }));
      if (p.state !== 'running') {
        ended.current.add(p.id);
        const t = setTimeout(() => {
          timers.delete(t);
          setJobs(({ [p.id]: _gone, ...rest }) => rest);
        }, LINGER_MS);
        timers.add(t);
      }
    });
    return () => {
      off();
      for (const t of timers) clearTimeout(t);
    };
  }, [api]);

  // After a gap in the events the host's list is the truth: a job shown as running that it no longer
  // lists ended while the window was not listening.
  useEffect(() => {
    if (!synced) return;
    setJobs((all) => {
      const next: Record<string, JobProgress> = {};
      for (const j of Object.values(all)) if (j.state !== 'running') next[j.id] = j;
      for (const j of synced.jobs) {
        if (ended.current.has(j.id)) continue;
        // Progress only moves on: of the two, the one further along is the later.
        const shown = all[j.id];
        next[j.id] = shown && shown.done > j.done ? shown : j;
      }
      return next;
    });
  }, [synced]);

  const list = Object.values(jobs);
  if (list.length === 0) return null;
  return (
    <section className="jobs" aria-label="Work in progress" data-testid="jobs">
      {list.map((j) => (
        <div key={j.id} className={`job ${j.state}`} data-testid="job" data-kind={j.kind} data-state={j.state}>
          <div className="job-text">
            <strong title={visibleText(j.label)}>{visibleText(j.label)}</strong>
            <span className="dim">{jobStatus(j)}</span>
          </div>
          {/* Only while it runs: a finished job has no bar (a half-full bar beside "done" reads as unfinished). */}
          {j.state === 'running' ? (
            <progress
              className="job-bar"
              max={j.total > 0 ? j.total : undefined}
              value={j.total > 0 ? Math.min(j.done, j.total) : undefined}
              aria-label={`${visibleText(j.label)}: ${jobStatus(j)}`}
            />
          ) : null}
          {j.state === 'running' ? (
            <button
              type="button"
              disabled={!j.cancellable || asked[j.id] === true}
              onClick={() => {
                setAsked((a) => ({ ...a, [j.id]: true }));
                void api.invoke('job:cancel', { id: j.id });
              }}
              data-testid="job-cancel"
            >
              {asked[j.id] ? 'Cancelling…' : 'Cancel'}
            </button>
          ) : null}
        </div>
      ))}
    </section>
  );
}
