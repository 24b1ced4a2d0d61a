/** What analysis may know about the disk: passed in, so analysis itself does no I/O. */
export type PathKind = 'file' | 'dir' | 'missing' | 'unreadable';

export interface RepoStatePort {
  kind(path: string): PathKind;
  /** The file's text, or null when it cannot be read. */
  readText(path: string): string | null;
}

export interface AnalysisPorts {
  repo: RepoStatePort;
  /** sha-256 hex of a text. */
  hash(text: string): string;
  now(): Date;
}
