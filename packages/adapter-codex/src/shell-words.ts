/**
 * A deliberately small shell lexer for the pure-read grammar: words made of safe characters, single
 * quotes, double quotes without expansions, and `|` between stages. Anything else — `;`, `&`, `>`,
 * `<`, `$`, backquotes, globs, `~`, backslashes, comments, newlines — makes the command unreadable
 * (null), so that it can never be taken for a read.
 */
export type Stage = string[];

const SAFE = /[A-Za-z0-9_./,+:@%=-]/;

export function splitPipeline(script: string): Stage[] | null {
  const stages: Stage[] = [[]];
  let i = 0;
  const s = script.trim();
  while (i < s.length) {
    const c = s[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '|') {
      if (s[i + 1] === '|') return null;
      if ((stages[stages.length - 1] as Stage).length === 0) return null;
      stages.push([]);
      i++;
      continue;
    }
    let word = '';
    let quoted = false;
    while (i < s.length) {
      const d = s[i] as string;
      if (d === ' ' || d === '\t' || d === '|') break;
      if (d === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) return null;
        word += s.slice(i + 1, end);
        quoted = true;
        i = end + 1;
        continue;
      }
      if (d === '"') {
        const end = s.indexOf('"', i + 1);
        if (end < 0) return null;
        const inner = s.slice(i + 1, end);
        if (/[$`\\!]/.test(inner)) return null;
        word += inner;
        quoted = true;
        i = end + 1;
        continue;
      }
      if (!SAFE.test(d)) return null;
      word += d;
      i++;
    }
    if (word === '' && !quoted) return null;
    (stages[stages.length - 1] as Stage).push(word);
  }
  const last = stages[stages.length - 1] as Stage;
  if (last.length === 0) return null;
  return stages;
}

/** `bash -lc '<script>'` and its kin, as Codex's shell tools wrap commands: the script, else null. */
export function unwrapShell(argv: readonly string[]): string | null {
  if (argv.length !== 3) return null;
  const [sh, flag, script] = argv as [string, string, string];
  const name = sh.slice(sh.lastIndexOf('/') + 1);
  if (!['bash', 'sh', 'zsh', 'dash'].includes(name)) return null;
  if (!['-c', '-lc', '-l -c'].includes(flag)) return null;
  return script;
}
