import { folderFor } from '@glassbox/analysis';
import { defaultDbPath, readSavedMappings } from '@glassbox/store';

/**
 * The folder a session's recorded working directory is mapped to: `--repo` when given, else a
 * mapping saved in the index (by the app, or `glassbox ui`), else none (null: the cwd itself).
 */
export function repoRootResolver(repo: string | null, env: NodeJS.ProcessEnv): (cwd: string | null) => string | null {
  if (repo) return () => repo;
  const saved = readSavedMappings(defaultDbPath(env, env['HOME'] ?? undefined));
  return (cwd) => {
    const mapped = folderFor(cwd, saved);
    return mapped === cwd ? null : mapped;
  };
}
