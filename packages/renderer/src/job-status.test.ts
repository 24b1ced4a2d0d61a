import { describe, expect, it } from 'vitest';
import type { JobProgress } from '@glassbox/contract';
import { followJob, isJobOf, jobStatus } from './job-status';

const PATH = '/home/me/.claude/projects/p/s.jsonl';
const job = (over: Partial<JobProgress>): JobProgress => ({ id: 'job-1', kind: 'fork-write', label: 'Writing the fork', done: 0, total: 0, unit: 'bytes', state: 'running', cancellable: true, path: PATH, ...over });

describe('the fork wizard follows the job of its own write', () => {
  it('only a fork write of this session is its job', () => {
    expect(isJobOf(job({}), 'fork-write', PATH)).toBe(true);
    expect(isJobOf(job({ kind: 'fork-preview' }), 'fork-write', PATH)).toBe(false);
    expect(isJobOf(job({ path: '/other.jsonl' }), 'fork-write', PATH)).toBe(false);
    const { path: _none, ...noPath } = job({});
    expect(isJobOf(noPath, 'fork-write', PATH)).toBe(false);
  });

  it('takes the first running job of its request, then that job only', () => {
    const first = followJob(null, job({ stage: 'writing the fork', done: 1, total: 4 }), 'fork-write', PATH);
    expect(first?.id).toBe('job-1');
    // Another session's write, or a later write of this one, does not take its place.
    expect(followJob(first, job({ id: 'job-2' }), 'fork-write', PATH)).toBe(first);
    const later = followJob(first, job({ done: 3, total: 4 }), 'fork-write', PATH);
    expect(later?.done).toBe(3);
    expect(followJob(later, job({ state: 'cancelled' }), 'fork-write', PATH)?.state).toBe('cancelled');
  });

  it('an ended job heard late is not taken as the one it waits on', () => {
    expect(followJob(null, job({ state: 'cancelled' }), 'fork-write', PATH)).toBeNull();
    expect(followJob(null, job({ kind: 'open' }), 'fork-write', PATH)).toBeNull();
  });
});

describe('a job says how it stands', () => {
  it('its stage and share while it runs, how it ended after', () => {
    expect(jobStatus(job({}))).toBe('working…');
    expect(jobStatus(job({ stage: 'writing the fork', done: 3 * 1048576, total: 12 * 1048576 }))).toBe('writing the fork: 3.0 MB of 12 MB (25%)');
    expect(jobStatus(job({ unit: 'files', stage: 'indexing', done: 2, total: 8 }))).toBe('indexing: 2 of 8 files (25%)');
    expect(jobStatus(job({ state: 'cancelled' }))).toBe('cancelled; nothing was left behind');
    expect(jobStatus(job({ state: 'failed' }))).toBe('failed');
  });
});
