import { homedir } from 'node:os';
import { join } from 'node:path';

const DB_FILE_NAME = 'index.db';

/**
 * The folder Glassbox keeps its index in: `GLASSBOX_DATA_DIR`, else `$XDG_DATA_HOME/glassbox`, else
 * `~/.local/share/glassbox`. The desktop app passes its own userData folder instead.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const explicit = env['GLASSBOX_DATA_DIR'];
  if (explicit) return explicit;
  const xdg = env['XDG_DATA_HOME'];
  if (xdg) return join(xdg, 'glassbox');
  return join(home, '.local', 'share', 'glassbox');
}

export function defaultDbPath(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  return join(defaultDataDir(env, home), DB_FILE_NAME);
}
