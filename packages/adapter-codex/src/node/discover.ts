import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { pathList } from '@glassbox/file-io';
import { join } from 'node:path';
import { isRolloutFileName, sessionIdFromFileName } from '../discover-names';

/**
 * The Codex homes to look in: `$CODEX_HOME` (one path, or several separated by commas), else
 * `~/.codex`. Rollouts live in `<home>/sessions/YYYY/MM/DD/` and `<home>/archived_sessions/`.
 */
export function codexHomes(env: Readonly<Record<string, string | undefined>> = process.env, home: string = homedir()): string[] {
  return pathList(env['CODEX_HOME'], home) ?? [join(home, '.codex')];
}

export interface RolloutFileRef {
  path: string;
  /** The thread id in the file name (the file's content is authoritative). */
  id: string;
  home: string;
  archived: boolean;
  /** Codex rewrites cold rollouts as `.jsonl.zst`; those are listed but not read here. */
  compressed: boolean;
  size: number;
  mtimeMs: number;
}

/** Every rollout file under the homes, newest first. Missing folders are skipped. */
export function listRolloutFiles(homes: readonly string[]): RolloutFileRef[] {
  const out: RolloutFileRef[] = [];
  for (const home of homes) {
    walk(join(home, 'sessions'), 4, (path, name) => add(out, path, name, home, false));
    walk(join(home, 'archived_sessions'), 4, (path, name) => add(out, path, name, home, true));
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}

function add(out: RolloutFileRef[], path: string, name: string, home: string, archived: boolean): void {
  const compressed = name.endsWith('.jsonl.zst');
  const plain = compressed ? name.slice(0, -'.zst'.length) : name;
  if (!isRolloutFileName(plain)) return;
  // A plain file and its compressed sibling are one rollout; the plain one is current.
  if (compressed && out.some((r) => r.path === path.slice(0, -'.zst'.length))) return;
  let st;
  try {
    st = statSync(path);
  } catch {
    return;
  }
  if (!st.isFile()) return;
  out.push({ path, id: sessionIdFromFileName(plain) as string, home, archived, compressed, size: st.size, mtimeMs: st.mtimeMs });
}

function walk(dir: string, depth: number, visit: (path: string, name: string) => void): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  // Plain files before their `.zst` siblings, so that the sibling check above sees them first.
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (depth > 0) walk(path, depth - 1, visit);
    } else if (e.isFile()) visit(path, e.name);
  }
}

/**
 * The folders rollouts live in under the homes: `<home>/sessions` and `<home>/archived_sessions`
 * (the index's roots for Codex: watching the whole home would see its logs and state files).
 */
export function sessionRoots(homes: readonly string[]): string[] {
  return homes.flatMap((home) => [join(home, 'sessions'), join(home, 'archived_sessions')]);
}

/**
 * Every plain rollout file under the given roots, in name order: a sessions folder (dated
 * sub-folders), an archived_sessions folder, or a whole home. Compressed rollouts are left out:
 * they cannot be read yet.
 */
export function rolloutsUnder(roots: readonly string[]): { path: string; root: string }[] {
  const out: { path: string; root: string }[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    walk(root, 4, (path, name) => {
      if (!isRolloutFileName(name) || seen.has(path)) return;
      seen.add(path);
      out.push({ path, root });
    });
  }
  return out;
}

/** The rollout files of one thread id, found by name. */
export function findRolloutById(homes: readonly string[], id: string): RolloutFileRef[] {
  return listRolloutFiles(homes).filter((r) => r.id === id);
}
