/** The host's settings the window reads and changes: what it serves, its state now, and where a recorded folder is here. */
import { isAbsolute } from 'node:path';
import { checkMappingFolder, readSettings, writeSettings } from '@glassbox/store';
import { fail, ok } from '@glassbox/contract';
import type { HostContext } from './context';
import type { HandlersFor } from './handlers';

export function settingsHandlers(host: HostContext): HandlersFor<'host:info' | 'host:sync' | 'repo:map' | 'window:layout'> {
  return {
    'host:info': async () => ok(host.info()),
    'host:sync': async () => ok(host.sync()),
    'window:layout': async (a) => {
      const { problem: _problem, ...now } = readSettings(host.dataDir);
      if (a.sidebarWidth === undefined) return ok({ sidebarWidth: now.sidebarWidth });
      writeSettings(host.dataDir, { ...now, sidebarWidth: a.sidebarWidth });
      return ok({ sidebarWidth: a.sidebarWidth });
    },
    'repo:map': async (a) => {
      let folder: string | null = null;
      if (a.folder !== null) {
        if (!isAbsolute(a.folder)) return fail('bad_args', 'Give the folder as an absolute path; a relative path is refused.');
        const checked = checkMappingFolder(a.folder);
        // A refused mapping saves nothing, and says the same whatever the reason (missing, a file,
        // unreadable): a token holder must not learn from it what exists on this machine.
        if (!checked.ok) return fail('refused', `Not mapped: ${a.folder} is not usable as the project's folder.`, 'Give a folder that exists here, that you can read, and that holds the project now.');
        folder = checked.folder;
      }
      if (folder === null) delete host.repoMap[a.cwd];
      else host.repoMap[a.cwd] = folder;
      // Kept across restarts, and applied to the list's figures by the next analysis.
      host.catalog.saveMapping(a.cwd, folder);
      void host.refresh();
      return ok(host.info());
    },
  };
}
