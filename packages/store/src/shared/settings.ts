import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFileAtomic } from './atomic';
import { ensurePrivateFolder } from './private-folder';

/** Glassbox's own settings, in `<data>/settings.json` (kept across restarts, shared by the app and the CLI). */
export interface GlassboxSettings {
  /** Keep every session in the archive automatically while the app runs (see keep/auto-keep.ts). */
  autoKeep: boolean;
  /** The window's session list width in pixels, as last dragged (null: the window's default). */
  sidebarWidth: number | null;
}

const DEFAULTS: GlassboxSettings = { autoKeep: false, sidebarWidth: null };

/** The settings; a missing or unreadable file gives the defaults (and `problem` says why, for the latter). */
export function readSettings(dataDir: string): GlassboxSettings & { problem: string | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ...DEFAULTS, problem: code === 'ENOENT' ? null : `${join(dataDir, 'settings.json')} could not be read (${code ?? (error as Error).message}); the defaults apply` };
  }
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const width = o['sidebarWidth'];
  return { autoKeep: o['autoKeep'] === true, sidebarWidth: typeof width === 'number' && Number.isFinite(width) && width > 0 ? width : null, problem: null };
}

/** Saves settings atomically (a crash leaves the old file or the new one, never half of one). */
export function writeSettings(dataDir: string, settings: GlassboxSettings): void {
  ensurePrivateFolder(dataDir);
  // A setting left at its default is not written: the file says only what a person chose.
  const saved: Partial<GlassboxSettings> = { autoKeep: settings.autoKeep, ...(settings.sidebarWidth === null ? {} : { sidebarWidth: settings.sidebarWidth }) };
  replaceFileAtomic(join(dataDir, 'settings.json'), JSON.stringify(saved, null, 2) + '\n');
}
