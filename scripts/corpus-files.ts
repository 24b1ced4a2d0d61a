// Finding transcripts in a corpus folder, for the benchmarks and compatibility checks.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Every file under `dir` whose name `take` accepts, in name order, without entering the folders named in `skip`. */
export function filesUnder(dir: string, skip: readonly string[], take: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (!skip.includes(name)) walk(p);
      } else if (take(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * `project-after/` (the project as a generated scenario's run left it, for the proofs against the disk)
 * in the transcript's folder or one of the `levels - 1` folders above it.
 */
export function projectAfter(path: string, levels: number): string | null {
  let d = dirname(path);
  for (let i = 0; i < levels; i++) {
    if (existsSync(join(d, 'project-after'))) return join(d, 'project-after');
    d = dirname(d);
  }
  return null;
}
