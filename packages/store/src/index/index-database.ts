import { dbFault, unavailableFor } from './db-errors';
import { moveAside, openDatabase, type Db } from './db';
import { prepareStatements, type Statements } from './statements';

/**
 * The index's database and what to do when it fails. A damaged file is moved aside and replaced by
 * an empty one (the index is a cache: the next refresh fills it); any other failure (a lock held
 * past the wait, a full disk, a read-only folder) becomes IndexUnavailable and changes nothing.
 */
export class IndexDatabase {
  db: Db;
  st: Statements;
  /** Messages from opening the database (a damaged or newer one moved aside and rebuilt). */
  readonly notices: string[] = [];

  constructor(
    readonly path: string,
    private readonly nativeBinding: string | undefined,
    private readonly onNotice: (notice: string) => void,
    private readonly busyTimeoutMs: number,
  ) {
    const opened = this.open();
    this.db = opened.db;
    this.st = prepareStatements(this.db);
    this.notices.push(...opened.notices);
  }

  /** Runs a read; if the database turns out damaged it is replaced by an empty one and `empty` is returned. */
  read<T>(read: () => T, empty: T): T {
    try {
      return read();
    } catch (error) {
      if (isDamage(error)) {
        this.replaceDamaged(error);
        return empty;
      }
      throw this.explained(error);
    }
  }

  /**
   * Runs `write` in one IMMEDIATE transaction: the write lock is taken at BEGIN (waiting for another
   * writer up to the busy timeout), so a transaction never fails half-way on a lock it could not
   * upgrade to. Damage is rethrown as is, for the caller to replace the database and start again.
   */
  write<T>(write: () => T): T {
    try {
      return this.db.transaction(write).immediate();
    } catch (error) {
      if (isDamage(error)) throw error;
      throw this.explained(error);
    }
  }

  /** Moves the damaged database aside, opens a new one, and returns the notice saying so. */
  replaceDamaged(error: unknown): string {
    this.db.close();
    const aside = moveAside(this.path, 'corrupt');
    const opened = this.open();
    this.db = opened.db;
    this.st = prepareStatements(this.db);
    const notice = `The index was damaged (${(error as Error).message}): moved it to ${aside} and rebuilt it`;
    this.notices.push(notice, ...opened.notices);
    this.onNotice(notice);
    return notice;
  }

  close(): void {
    this.db.close();
  }

  private explained(error: unknown): unknown {
    return unavailableFor(error, this.path, this.busyTimeoutMs) ?? error;
  }

  private open(): ReturnType<typeof openDatabase> {
    return openDatabase(this.path, {
      ...(this.nativeBinding ? { nativeBinding: this.nativeBinding } : {}),
      busyTimeoutMs: this.busyTimeoutMs,
      probe: (db) => void prepareStatements(db),
    });
  }
}

export function isDamage(error: unknown): boolean {
  return dbFault(error) === 'corrupt';
}
