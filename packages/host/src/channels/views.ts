/** The window's views of an open session: the snapshot, its cost, the conversation, one segment. */
import { basename } from 'node:path';
import type { ClassifiedSnapshot } from '@glassbox/core';
import { fail, ok, rawJson, type SnapshotView } from '@glassbox/contract';
import { asJob, runOptions } from '../job-work';
import { SharedRuns } from '../shared-runs';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function viewHandlers(host: HostContext): HandlersFor<'session:snapshot' | 'session:cost' | 'session:conversation' | 'session:export' | 'segment:detail'> {
  // The open and the reload a growing file calls for come together: one read and one job, not two.
  const snapshots = new SharedRuns();
  return {
    'session:snapshot': (a) =>
      snapshots.run(JSON.stringify([a.path, a.withInferred ?? false, a.model ?? null]), () => host.sessions.generation(a.path), () =>
        asJob(host.jobs, 'open', `Opening ${basename(a.path)}`, a.path, async (job) => {
          const o = await host.sessions.open(a.path, job);
          if (!o.ok) return o;
          const options = host.sessions.analyzeOptions(o.value, a.withInferred ?? false, a.model);
          const cwd = o.value.summary.cwd;
          const mapped = host.repoRootFor(cwd);
          // An unmapped drop's cwd was not looked up: "missing here" would be wrong, the note says why.
          const hideRepoMissing = o.value.upload && !mapped;
          const r = await host.work.run({ op: 'snapshot', ref: o.value.ref, options, hideRepoMissing }, runOptions(job, o.value.ref.key));
          if (r === 'missing' || !r.view) return host.sessions.gone(o.value);
          const repoNote = !cwd ? 'no working directory recorded' : mapped ? `${cwd} → ${mapped}` : cwd;
          const note = hideRepoMissing ? `${cwd ?? 'no working directory recorded'} (not looked up on this machine: map it to a folder to prove gone and drift)` : repoNote;
          const listed = o.value.upload ? null : host.catalog.update(a.path);
          return ok({
            // As the work thread wrote it: the transports pass it on as it is (EngineHost.handleWire).
            snapshot: rawJson(r.view.json) as unknown as ClassifiedSnapshot,
            keeping: listed ? { retention: listed.retention, kept: listed.kept } : null,
            figures: r.view.figures,
            lineage: host.lineageOf(r.view.head),
            external: o.value.external,
            repoNote: note,
            bytes: r.summary.size,
            analysedAt: new Date().toISOString(),
            context: r.view.context,
            cost: r.view.cost,
            turnAdditions: rawJson(r.view.turnAdditions) as unknown as NonNullable<SnapshotView['turnAdditions']>,
          });
        }),
      ),
    'session:cost': async (a) => {
      const o = await host.sessions.open(a.path);
      if (!o.ok) return o;
      const r = await host.work.run({ op: 'cost', ref: o.value.ref }, { affinity: o.value.ref.key });
      return r === 'missing' ? host.sessions.gone(o.value) : ok(r);
    },
    // The whole session needs the window before each compaction: a job, as the compaction views are.
    'session:conversation': (a) =>
      asJob(host.jobs, 'compactions', 'Reading the conversation', a.path, async (job) => {
        const o = await host.sessions.open(a.path, job);
        if (!o.ok) return o;
        const r = await host.work.run({ op: 'conversation', ref: o.value.ref, options: host.sessions.analyzeOptions(o.value, false) }, runOptions(job, o.value.ref.key));
        return r === 'missing' ? host.sessions.gone(o.value) : ok(r);
      }),
    'session:export': (a) =>
      asJob(host.jobs, 'compactions', `Exporting ${basename(a.path)}`, a.path, async (job) => {
        const o = await host.sessions.open(a.path, job);
        if (!o.ok) return o;
        const r = await host.work.run({ op: 'export', ref: o.value.ref, options: host.sessions.analyzeOptions(o.value, false), format: a.format }, runOptions(job, o.value.ref.key));
        return r === 'missing' ? host.sessions.gone(o.value) : ok(r);
      }),
    'segment:detail': async (a) => {
      const o = await host.sessions.open(a.path);
      if (!o.ok) return o;
      const r = await host.work.run({ op: 'detail', ref: o.value.ref, segmentId: a.segmentId, options: host.sessions.analyzeOptions(o.value, false) }, { affinity: o.value.ref.key });
      if (r === 'missing') return host.sessions.gone(o.value);
      if (r === 'no-segment') return fail('not_found', 'That segment is no longer in the window (the session changed).', 'Reopen the session.');
      return ok(r);
    },
  };
}
