/**
 * Maps a path recorded in a session to this machine. With no repo root the path is taken as it is;
 * with one, only paths inside the session's working directory can be mapped (others prove nothing).
 */
export function mapPath(rawPath: string, cwd: string | null, repoRoot: string | null): string | null {
  const path = absolutePath(rawPath, cwd);
  if (path === null) return null;
  if (repoRoot === null) return path;
  if (cwd === null) return null;
  for (const sep of ['/', '\\']) {
    const prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
    if (path.startsWith(prefix)) {
      const rest = path.slice(prefix.length).split(/[\\/]/).join('/');
      return repoRoot.endsWith('/') ? repoRoot + rest : `${repoRoot}/${rest}`;
    }
  }
  return path === cwd ? repoRoot : null;
}

/** Absolute paths stay; relative ones are taken from the session's working directory (unknown: null). */
export function absolutePath(path: string, cwd: string | null): string | null {
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\')) return path;
  if (cwd === null) return null;
  const sep = cwd.includes('\\') && !cwd.includes('/') ? '\\' : '/';
  const base = cwd.endsWith(sep) ? cwd : cwd + sep;
  return base + path.replace(/^\.[\\/]/, '');
}
