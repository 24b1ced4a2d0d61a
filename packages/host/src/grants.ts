import { realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { fail, ok, type Result } from '@glassbox/contract';

/**
 * What the host may read or fork by path: the configured projects roots, files the person opened or
 * dropped in this run (granted one by one), and the files the session list itself shows. Every
 * path-taking request goes through admit(): relative paths are refused; a path is checked as given
 * (before anything touches the disk, so a refusal tells nothing about what exists there) and again
 * after links are resolved (a link inside a root that points elsewhere is refused).
 */
export class Grants {
  private readonly files = new Set<string>();

  constructor(
    private readonly roots: () => readonly string[],
    /** The session list shows this path (an index row, e.g. a file indexed with `glassbox index FILE`). */
    private readonly listed: (path: string) => boolean = () => false,
  ) {}

  /** Allows one file (its real path, and the path as given) for the rest of this run. */
  grant(path: string): void {
    this.files.add(resolve(path));
    const real = realOrNull(path);
    if (real) this.files.add(real);
  }

  /** The real path to use for a request's path, or why it is refused. */
  admit(path: string): Result<string> {
    if (!isAbsolute(path)) return fail('bad_args', 'Paths must be absolute; a relative path is refused.');
    const given = resolve(path);
    if (!this.inScope(given)) return outside();
    const real = realOrNull(given);
    if (real === null) return fail('not_found', `${given} does not exist (any more).`, 'Refresh the session list.');
    if (real !== given && !this.inScope(real)) return outside();
    return ok(real);
  }

  private inScope(path: string): boolean {
    if (this.files.has(path) || this.listed(path)) return true;
    return this.roots().some((root) => {
      const bases = [resolve(root)];
      const real = realOrNull(root);
      if (real && real !== bases[0]) bases.push(real);
      return bases.some((b) => path.startsWith(b.endsWith(sep) ? b : b + sep));
    });
  }
}

function outside(): Result<never> {
  return fail(
    'refused',
    'That file is outside the projects folders Glassbox lists and was not opened in this window.',
    'Open it with File → Open or drop it on the window.',
  );
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
