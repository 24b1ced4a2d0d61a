/**
 * What Glassbox remembers about a fork, kept in the archive as `forks/<forkId>.json` (see
 * writer.ts for why it is a sidecar and not a record inside the fork).
 */
export interface ForkManifest {
  version: 1;
  kind: 'clean' | 'undo';
  forkId: string;
  forkPath: string;
  createdAt: string;
  cwd: string | null;
  original: { path: string; sessionId: string; sha256: string; bytes: number; lines: number };
  fork: { sha256: string; bytes: number; lines: number };
  /** Subagent and tool-result files carried over into `<forkId>/`, relative to the session folder. */
  sidecars: { rel: string; originalSha256: string; forkSha256: string; sessionIdRewritten: boolean }[];
  actions: ManifestAction[];
  totals: { tokensFreed: number; tombstoneTokens: number; bytesRemoved: number };
  /** For `undo`: the fork this session restores the original of. */
  restoredFrom?: string;
}

export interface ManifestAction {
  segmentId: string;
  uuid: string;
  line: number;
  blockIndex: number;
  target: 'tool-result' | 'tool-input';
  toolUseId?: string;
  toolName: string;
  class?: string;
  tokensFreed?: number;
  tombstone: string;
  removed: { path: string; sha256: string; bytes: number; sentToModel: boolean }[];
}
