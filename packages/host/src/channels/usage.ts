/** Cost reports over every indexed session (ccusage's daily, monthly and session reports, by project and model). */
import { fail, ok } from '@glassbox/contract';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function usageHandlers(host: HostContext): HandlersFor<'usage:report'> {
  return {
    'usage:report': async (a) => {
      const usage = host.catalog.usage?.bind(host.catalog);
      if (!usage) return fail('unavailable', 'Cost reports need the session index, which is not open.', 'See the notice at the top of the list for why.');
      let report;
      try {
        report = usage({ by: a.by, ...(a.since ? { since: a.since } : {}), ...(a.timeZone ? { timeZone: a.timeZone } : {}) });
      } catch (error) {
        if (error instanceof RangeError) return fail('bad_args', `usage:report: ${a.timeZone ?? ''} is not a time zone`);
        throw error;
      }
      const phase = host.progress().phase;
      return ok({ ...report, partial: phase === 'scanning' || phase === 'indexing' });
    },
  };
}
