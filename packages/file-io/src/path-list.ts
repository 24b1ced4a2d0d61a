import { join } from 'node:path';

/**
 * The folders an agent's home variable names (`CODEX_HOME`, `GEMINI_CLI_HOME`): one path or several
 * separated by commas, `~` and `~/…` expanded against `home`, each once, in the order given; null when
 * the variable is unset or blank (the agent's default applies).
 */
export function pathList(raw: string | undefined, home: string): string[] | null {
  const value = raw?.trim();
  if (!value) return null;
  const out: string[] = [];
  for (const part of value.split(',')) {
    const p = part.trim();
    if (!p) continue;
    const expanded = p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p;
    if (!out.includes(expanded)) out.push(expanded);
  }
  return out;
}
