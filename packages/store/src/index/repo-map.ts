import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Folder mappings: a session's recorded working directory → the folder it is in on this machine now
 * (a moved checkout). Saved in the index (table repo_map), used by the list's analysis, the window,
 * the wizard, the CLI (where `--repo` still overrides) and the resume command.
 */
export type FolderCheck = { ok: true; folder: string } | { ok: false; reason: string };

/** A folder a mapping may point to: it exists, is a folder, and can be listed. Nothing is saved otherwise. */
export function checkMappingFolder(folder: string): FolderCheck {
  const abs = resolve(folder);
  let st;
  try {
    st = statSync(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `${abs} does not exist` : `${abs} cannot be read (${code ?? (error as Error).message})` };
  }
  if (!st.isDirectory()) return { ok: false, reason: `${abs} is a file, not a folder` };
  try {
    accessSync(abs, constants.R_OK | constants.X_OK);
  } catch (error) {
    return { ok: false, reason: `${abs} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'no access'})` };
  }
  return { ok: true, folder: realpathSync(abs) };
}

/**
 * The mappings saved in an index database, read without opening it for writing (the CLI's commands
 * other than `index` never write the index). No database, an older one, or one that cannot be read:
 * no mappings.
 */
export function readSavedMappings(dbPath: string): Record<string, string> {
  if (!existsSync(dbPath)) return {};
  let db: Database.Database | null = null;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const has = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'repo_map'").get();
    if (!has) return {};
    const rows = db.prepare('SELECT cwd, folder FROM repo_map').all() as { cwd: string; folder: string }[];
    return Object.fromEntries(rows.map((r) => [r.cwd, r.folder]));
  } catch {
    return {};
  } finally {
    db?.close();
  }
}
