import { fail, ok, type KeepOutcome, type RestoredView, type Result, type RetentionInfo } from '@glassbox/contract';
import { refusalOf, type Glassbox } from '@glassbox/engine';
import { readSettings, writeSettings } from '@glassbox/store';
import type { SessionCatalog } from './catalog';

/** How often the automatic keeper looks for idle sessions while the app runs. */
const AUTO_KEEP_EVERY_MS = 60_000;

export interface KeepingHost {
  dataDir: string;
  glassbox: Glassbox;
  catalog: SessionCatalog;
  /** A path the window sent, checked against the grant list: the real path, or the refusal. */
  admit(path: string): Result<string>;
  /** A session's row changed (kept), or a file appeared (restored) or went (its archive copy). */
  changed(path: string, reason: 'changed' | 'added' | 'removed'): Promise<void>;
  repoRootFor(cwd: string | null): string | null;
}

/**
 * The host's side of the retention guard: keep and restore (the store's code, as `glassbox keep` and
 * `restore` run it), the clean-up rules in force, and "keep every session automatically", which keeps
 * each session once it has been idle for a while and again whenever it changed, and any session whose
 * deletion date is near, one at a time so the host stays responsive.
 */
export class Keeping {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly host: KeepingHost) {}

  private get keeping() {
    return this.host.glassbox.keeping;
  }

  keep(paths: readonly string[]): KeepOutcome[] {
    const out: KeepOutcome[] = [];
    for (const given of paths) {
      const admitted = this.host.admit(given);
      if (!admitted.ok) {
        out.push({ path: given, status: 'failed', message: admitted.error.message, bytes: 0, writtenBytes: 0 });
        continue;
      }
      if (this.keeping.isKeptCopy(admitted.value)) {
        out.push({ path: given, status: 'unchanged', message: 'This is the archive’s copy of a session whose original is gone: it is kept already.', bytes: 0, writtenBytes: 0 });
        continue;
      }
      try {
        const r = this.keeping.keep(admitted.value);
        out.push({ path: given, status: r.status, message: r.skipped.length > 0 ? `Left out ${r.skipped.map((s) => `${s.path} (${s.reason})`).join(', ')}.` : null, bytes: r.bytes, writtenBytes: r.writtenBytes });
      } catch (error) {
        out.push({ path: given, status: 'failed', message: (error as Error).message, bytes: 0, writtenBytes: 0 });
      }
    }
    return out;
  }

  /** Writes a kept session back where it was, named by its row's path (the archive's copy or the original path). */
  restore(path: string): Result<RestoredView> {
    const admitted = this.host.admit(path);
    if (!admitted.ok) return admitted;
    try {
      // Only into the session folders the host lists from (its roots), never where a manifest alone says.
      const { restored: r, resume } = this.keeping.restore(admitted.value, { mapped: (cwd) => this.host.repoRootFor(cwd), roots: this.host.catalog.roots() });
      return ok({ sessionId: r.sessionId, path: r.path, files: r.written.length, resumeCommand: resume.command, resumeNote: resume.note });
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      if (refusal.code === 'not_kept' || refusal.code === 'ambiguous') return fail('not_found', refusal.message, 'Refresh the session list.');
      if (refusal.code === 'archive_corrupt' || refusal.code === 'archive_missing') return fail('refused', refusal.message, 'Nothing was written; glassbox archive verify checks the whole archive.');
      return fail('refused', refusal.message, 'Nothing was written.');
    }
  }

  info(): RetentionInfo {
    const report = this.keeping.reportIfAny();
    return {
      folders: this.host.catalog.retentionFolders?.() ?? [],
      autoKeep: readSettings(this.host.dataDir).autoKeep,
      archive: { root: this.keeping.archiveDir, sessions: report?.totals.sessions ?? 0, versions: report?.totals.versions ?? 0, storedBytes: report?.totals.storedBytes ?? 0 },
    };
  }

  /** Saves the setting and starts or stops the automatic keeper. */
  setAutoKeep(enabled: boolean): RetentionInfo {
    writeSettings(this.host.dataDir, { ...readSettings(this.host.dataDir), autoKeep: enabled });
    if (enabled) this.startAuto();
    else this.stopAuto();
    return this.info();
  }

  /** Starts the automatic keeper if the setting is on (called when the host starts). */
  resume(): void {
    if (readSettings(this.host.dataDir).autoKeep) this.startAuto();
  }

  /** One pass of the automatic keeper, now (after a refresh, and on its timer). Resolves when it is done. */
  autoKeepNow(): Promise<void> {
    if (!this.timer) return Promise.resolve();
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  stop(): void {
    this.stopAuto();
  }

  private startAuto(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.autoKeepNow(), AUTO_KEEP_EVERY_MS);
    this.timer.unref();
    void this.autoKeepNow();
  }

  private stopAuto(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async pass(): Promise<void> {
    for (const path of this.host.catalog.autoKeepCandidates?.() ?? []) {
      if (!this.timer) return;
      // One session at a time, yielding between them: requests from the window are answered meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      try {
        const r = this.keeping.keep(path);
        if (r.status === 'kept') await this.host.changed(path, 'changed');
      } catch {
        // A session that cannot be kept now (removed meanwhile, unreadable) is tried again on the next pass.
      }
    }
  }
}
