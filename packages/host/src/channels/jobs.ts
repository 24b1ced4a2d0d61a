/** Long jobs the window follows: it can stop one. */
import { ok } from '@glassbox/contract';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function jobHandlers(host: HostContext): HandlersFor<'job:cancel'> {
  return {
    'job:cancel': async (a) => ok({ cancelled: host.jobs.cancel(a.id) }),
  };
}
