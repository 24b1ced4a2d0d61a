import type { IndexProgress, SessionRow } from '@glassbox/contract';
import type { CatalogChange, SessionCatalog } from './catalog';

/**
 * What the window lists when the session index cannot open at all (a SQLite binding built for another
 * runtime, an unreadable data folder): no rows, and the reason in the status line. Files can still be
 * opened by path or dropped on the window; nothing pretends to be a list.
 */
export class UnavailableCatalog implements SessionCatalog {
  private readonly mappings: Record<string, string> = {};

  constructor(
    private readonly rootList: string[],
    private readonly reason: string,
  ) {}

  roots(): string[] {
    return [...this.rootList];
  }

  list(): SessionRow[] {
    return [];
  }

  async refresh(onProgress: (p: IndexProgress) => void): Promise<void> {
    onProgress({ phase: 'done', done: 0, total: 0, current: `The session list is unavailable: ${this.reason}` });
  }

  has(): boolean {
    return false;
  }

  update(): SessionRow | null {
    return null;
  }

  savedMappings(): Record<string, string> {
    return { ...this.mappings };
  }

  saveMapping(cwd: string, folder: string | null): void {
    // Kept for this run only: there is no index to save it in.
    if (folder === null) delete this.mappings[cwd];
    else this.mappings[cwd] = folder;
  }

  watch(_onChange: (change: CatalogChange) => void): () => void {
    return () => {};
  }

  close(): void {}
}
