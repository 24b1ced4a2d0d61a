/** Forks: preview and write a cleaned sibling, check one, undo one (moved into the archive), write its original back, and read back a payload it removed. */
import { fail, ok, type ArgsOf, type ForkPreview, type ForkWritten, type Result } from '@glassbox/contract';
import { asJob, runOptions } from '../job-work';
import { OpenSessions } from '../open-sessions';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function forkHandlers(host: HostContext): HandlersFor<'fork:preview' | 'fork:write' | 'fork:elision-preview' | 'fork:verify' | 'fork:write-original' | 'fork:remove' | 'fork:payload'> {
  return {
    'fork:preview': (a) => planOrWrite(host, a, 'fork-preview'),
    'fork:write': (a) => planOrWrite(host, a, 'fork-write'),
    'fork:elision-preview': async (a) => {
      if (OpenSessions.isUpload(a.path)) return fail('refused', 'A dropped file can be inspected but not forked, so it has no elision to preview.', 'Open the session from the list to fork it.');
      return asJob(host.jobs, 'fork-preview', 'Cutting the elisions', a.path, async (job) => {
        const o = await host.sessions.open(a.path, job);
        if (!o.ok) return o;
        const input = { path: o.value.ref.path as string, repoRoot: host.repoRootFor(o.value.summary.cwd), protectTail: a.protectTail, ...(a.elide ? { elide: a.elide } : {}) };
        return forkResult(await host.work.run({ op: 'elision-preview', input }, runOptions(job, o.value.ref.key)));
      });
    },
    'fork:verify': async (a) => {
      const admitted = host.grants.admit(a.path);
      if (!admitted.ok) return admitted;
      return asJob(host.jobs, 'fork-verify', 'Checking the fork', a.path, async (job) =>
        forkResult(await host.work.run({ op: 'fork-verify', path: admitted.value }, runOptions(job))),
      );
    },
    'fork:write-original': async (a) => {
      const admitted = host.grants.admit(a.path);
      if (!admitted.ok) return admitted;
      return asJob(host.jobs, 'fork-write-original', 'Restoring the original', a.path, async (job) => {
        const r = await host.work.run({ op: 'fork-write-original', path: admitted.value, repoMap: { ...host.repoMap } }, runOptions(job));
        if (r.ok) await host.announce(r.value.path);
        return forkResult(r);
      });
    },
    'fork:remove': async (a) => {
      const admitted = host.grants.admit(a.path);
      if (!admitted.ok) return admitted;
      return asJob(host.jobs, 'fork-remove', 'Undoing the fork', a.path, async (job) => {
        const r = await host.work.run({ op: 'fork-remove', path: admitted.value }, runOptions(job));
        if (r.ok) {
          // The fork's row goes (the index drops the file it no longer finds); its original's row no longer lists it.
          await host.refresh();
          await host.rowChanged(r.value.path, 'removed');
          await host.rowChanged(r.value.originalPath, 'changed');
        }
        return forkResult(r);
      });
    },
    'fork:payload': async (a) => {
      const admitted = host.grants.admit(a.path);
      if (!admitted.ok) return admitted;
      return forkResult(await host.work.run({ op: 'fork-payload', path: admitted.value, segmentId: a.segmentId }));
    },
  };
}

/** `fork:preview` and `fork:write`: the same plan, checked only or written. */
function planOrWrite(host: HostContext, a: ArgsOf<'fork:preview'>, kind: 'fork-preview'): Promise<Result<ForkPreview>>;
function planOrWrite(host: HostContext, a: ArgsOf<'fork:write'>, kind: 'fork-write'): Promise<Result<ForkWritten>>;
async function planOrWrite(host: HostContext, a: ArgsOf<'fork:preview'>, kind: 'fork-preview' | 'fork-write'): Promise<Result<ForkPreview | ForkWritten>> {
  if (OpenSessions.isUpload(a.path)) {
    return fail('refused', 'A dropped file can be inspected but not forked: it has no project folder here.', 'Open the session from the list (or by path in the desktop app) to fork it.');
  }
  return asJob<ForkPreview | ForkWritten>(host.jobs, kind, kind === 'fork-preview' ? 'Checking the fork' : 'Writing the fork', a.path, async (job) => {
    const o = await host.sessions.open(a.path, job);
    if (!o.ok) return o;
    const input = { path: o.value.ref.path as string, repoRoot: host.repoRootFor(o.value.summary.cwd), classes: a.classes, protectTail: a.protectTail, ...(a.elide ? { elide: a.elide } : {}) };
    const run = runOptions(job, o.value.ref.key);
    if (kind === 'fork-preview') return ok(await host.work.run({ op: 'fork-preview', input }, run));
    const written = await host.work.run({ op: 'fork-write', input }, run);
    if (!written.ok && job.signal.aborted) return fail('cancelled', 'Cancelled: the fork was not written.', 'Nothing was written.');
    // Not a failure: the plan found nothing provably dead, and the window says so as it is.
    if (!written.ok && written.nothingToRemove) return fail('nothing_to_remove', `Nothing to remove: ${written.message}`, 'No fork was written.');
    if (!written.ok) {
      const failing = written.checks.filter((c) => !c.ok).map((c) => `${c.label}: ${c.detail}`);
      return fail('refused', `Nothing was written. ${written.message}`, failing.join('; ') || undefined);
    }
    await host.announce(written.value.path);
    return ok(written.value);
  });
}

/** A fork operation's result as the CLI reports it: a fork or segment that does not exist, or a refusal. */
function forkResult<T>(r: { ok: true; value: T } | { ok: false; bad: boolean; message: string }): Result<T> {
  if (r.ok) return ok(r.value);
  return r.bad ? fail('not_found', r.message) : fail('refused', r.message, 'Nothing was changed.');
}
