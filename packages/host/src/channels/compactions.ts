/** The compaction x-ray: the compactions of a session, the text of one item, a search across them. */
import type { Result } from '@glassbox/contract';
import { asJob, runOptions } from '../job-work';
import type { RunOptions } from '../work/pool';
import type { SessionRef } from '../work/protocol';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

/** The session a compaction request reads: how it is analysed (its folder, or none for an unmapped drop). */
interface Subject {
  ref: SessionRef;
  repoRoot: string | null;
  diskless: boolean;
  readScope: readonly string[] | null;
}

export function compactionHandlers(host: HostContext): HandlersFor<'session:compactions' | 'compaction:item' | 'compaction:find'> {
  return {
    'session:compactions': (a) => xray(host, a.path, (s, run) => host.work.run({ op: 'compactions', ...s }, run)),
    'compaction:item': (a) =>
      xray(host, a.path, (s, run) => host.work.run({ op: 'compaction-item', ...s, agentId: a.agentId, index: a.index, segmentId: a.segmentId }, run)),
    'compaction:find': (a) => xray(host, a.path, (s, run) => host.work.run({ op: 'compaction-find', ...s, query: a.query }, run)),
  };
}

/** One x-ray request as a job: the session opened (or found open), then the work thread's answer. */
function xray<T>(host: HostContext, path: string, ask: (subject: Subject, run: RunOptions) => Promise<Result<T> | 'missing'>): Promise<Result<T>> {
  return asJob(host.jobs, 'compactions', 'Reading the compactions', path, async (job) => {
    const o = await host.sessions.open(path, job);
    if (!o.ok) return o;
    const at = host.sessions.analyzeOptions(o.value, false);
    const r = await ask({ ref: o.value.ref, repoRoot: at.repoRoot, diskless: at.diskless, readScope: at.readScope }, runOptions(job, o.value.ref.key));
    return r === 'missing' ? host.sessions.gone(o.value) : r;
  });
}
