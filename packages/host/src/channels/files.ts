/** Opening a file: by path (the desktop app's dialog or a drop, or a listed file), or a dropped file's bytes. */
import { basename, isAbsolute } from 'node:path';
import { ok } from '@glassbox/contract';
import { asJob } from '../job-work';
import { positionsOnly } from '../problem-text';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function fileHandlers(host: HostContext): HandlersFor<'file:open'> {
  return {
    'file:open': async (args) => {
      if ('path' in args) {
        // In the desktop app a path arrives only from the Open dialog or a drop: the person chose it.
        // In a browser there is no such path (a drop sends bytes), so only listed files open by path.
        if (host.mode === 'electron' && isAbsolute(args.path)) host.grants.grant(args.path);
        return asJob(host.jobs, 'open', `Opening ${basename(args.path)}`, args.path, async (job) => {
          const o = await host.sessions.open(args.path, job);
          if (!o.ok) return o;
          const s = o.value.summary;
          return ok({ path: args.path, title: s.title ?? s.firstPrompt?.slice(0, 140) ?? basename(args.path), sessionId: s.sessionId, problems: s.problems.map(positionsOnly) });
        });
      }
      const u = await host.sessions.upload(args.name, args.text);
      if (!u.ok) return u;
      const { key, summary } = u.value;
      return ok({ path: key, title: summary.title ?? summary.firstPrompt?.slice(0, 140) ?? args.name, sessionId: summary.sessionId, problems: summary.problems.map(positionsOnly) });
    },
  };
}
