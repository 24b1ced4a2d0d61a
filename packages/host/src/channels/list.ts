/** The session list: rows sorted and searched, and a refresh of the index. */
import { ok } from '@glassbox/contract';
import { matchesQuery, sortRows, whyMatched } from '../catalog';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function listHandlers(host: HostContext): HandlersFor<'sessions:list' | 'sessions:refresh'> {
  return {
    'sessions:list': async (a) => {
      // Read before the rows: a change announced while they are read makes the window's next sync newer.
      const version = host.version();
      const query = a.query?.trim() ?? '';
      const deep = query && host.catalog.search ? host.catalog.search(query) : new Map<string, string[]>();
      const all = host.catalog.list(a.sort ?? 'activity');
      const rows = sortRows(
        all.filter((r) => matchesQuery(r, query) || deep.has(r.path)),
        a.sort ?? 'activity',
      ).map((r) => {
        if (!query) return r;
        const snippet = deep.get(r.path);
        return { ...r, matched: whyMatched(r, query, deep) ?? 'text in the session', ...(snippet && snippet.length > 0 ? { snippet } : {}) };
      });
      return ok({ sessions: host.withLineage(rows), total: all.length, roots: host.catalog.roots(), agents: host.catalog.agentNames?.() ?? [], progress: host.progress(), version, samples: host.samples.sessions });
    },
    'sessions:refresh': async () => {
      void host.refresh();
      return ok(host.progress());
    },
  };
}
