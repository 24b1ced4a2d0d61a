/** The retention guard: keep sessions in the archive, restore one, and the rules and setting in force. */
import { ok } from '@glassbox/contract';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function keepingHandlers(host: HostContext): HandlersFor<'session:keep' | 'session:restore' | 'retention:info' | 'retention:auto-keep'> {
  return {
    'session:keep': async (a) => {
      const outcomes = host.keeping.keep(a.paths);
      for (const k of outcomes) if (k.status === 'kept') await host.rowChanged(k.path, 'changed');
      return ok({ outcomes });
    },
    'session:restore': async (a) => {
      const r = host.keeping.restore(a.path);
      if (!r.ok) return r;
      // The archive's copy leaves the list and the original comes back in its place.
      await host.refresh();
      if (a.path !== r.value.path) await host.rowChanged(a.path, 'removed');
      await host.announce(r.value.path);
      return r;
    },
    'retention:info': async () => ok(host.keeping.info()),
    'retention:auto-keep': async (a) => ok(host.keeping.setAutoKeep(a.enabled)),
  };
}
