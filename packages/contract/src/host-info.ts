/** Opening a file from anywhere, folder mappings, and what the host says about itself. */
import type { Problem } from '@glassbox/core';

export type FileOpenArgs =
  /** A path on this machine (Electron drop, "Open file…", a sample). */
  | { path: string }
  /** The bytes of a dropped file (browser mode, where a dropped file has no path). Nothing is written. */
  | { name: string; text: string };

export interface FileOpened {
  /** The key the other channels take as `path` (a real path, or `upload:<sha>` for dropped bytes). */
  path: string;
  title: string;
  sessionId: string;
  problems: Problem[];
}

export interface RepoMapArgs {
  /** The working directory as recorded in the transcript. */
  cwd: string;
  /** Where that folder is on this machine now; null removes the mapping. */
  folder: string | null;
}

export interface HostInfo {
  mode: 'electron' | 'browser';
  version: string;
  roots: string[];
  dataDir: string;
  repoMap: Record<string, string>;
}
