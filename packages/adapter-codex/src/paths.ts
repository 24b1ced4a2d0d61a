/**
 * Joins a command's file argument to its working directory and normalises `.` and `..`, as text
 * (POSIX paths; Codex on Windows runs commands through PowerShell, which the read grammar does not
 * accept). Null when the result cannot be known: a relative path with no working directory.
 */
export function joinPath(cwd: string | null, file: string): string | null {
  let full: string;
  if (file.startsWith('/')) full = file;
  else if (cwd && cwd.startsWith('/')) full = `${cwd.replace(/\/+$/, '')}/${file}`;
  else return null;
  const out: string[] = [];
  for (const part of full.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return '/' + out.join('/');
}

/** A path shown relative to the working directory when it lies inside it. */
export function relativeLabel(path: string, cwd: string | null): string {
  if (cwd) {
    const prefix = cwd.endsWith('/') ? cwd : cwd + '/';
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  }
  return path;
}
