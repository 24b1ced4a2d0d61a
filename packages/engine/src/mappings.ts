import { join } from 'node:path';
import { folderFor } from '@glassbox/analysis';
import { checkMappingFolder, readSavedMappings } from '@glassbox/store';
import { Refusal } from './failures';
import type { Setup } from './setup';

/** Where a session's recorded working directory is on this machine: a folder given for one run, or a mapping saved in the index. */
export class Mappings {
  constructor(private readonly setup: Setup) {}

  /** The mappings the app (or `glassbox ui`) saved in the index. */
  saved(): Record<string, string> {
    return readSavedMappings(join(this.setup.dataDir, 'index.db'));
  }

  /**
   * The folder a recorded cwd is mapped to: `repo` when given (it must be a folder here), else a saved
   * mapping, else none (null: the cwd itself).
   */
  resolver(repo: string | null): (cwd: string | null) => string | null {
    if (repo) {
      const checked = checkMappingFolder(repo);
      if (!checked.ok) throw new Refusal('no_such_folder', `--repo ${repo}: ${checked.reason}`, true);
      return () => checked.folder;
    }
    const saved = this.saved();
    return (cwd) => {
      const mapped = folderFor(cwd, saved);
      return mapped === cwd ? null : mapped;
    };
  }

  /** A folder a person offers for a mapping: usable, or why not. */
  check(folder: string): { ok: true; folder: string } | { ok: false; reason: string } {
    return checkMappingFolder(folder);
  }
}
