import type { AgentRegistry } from '@glassbox/core';
import { placementAllowed } from './naming';
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
  /** `mode`: the original's permission bits (a restored session gets them; absent in older manifests). */
  original: { path: string; sessionId: string; sha256: string; bytes: number; lines: number; mode?: number };
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
  /** For an elision (class `elided`): the archived middle its marker names. */
  elision?: { sha256: string; bytes: number; lines: number };
}

const SHA = /^[0-9a-f]{64}$/;
/** A fork id as Glassbox makes them (a uuid), or any plain file name without dots in front. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const RELATIVE_PARTS = /(^|\/)\.\.?(\/|$)/;
// Claude Code's session folder and checkpoint backups; Gemini CLI's subagent chats and saved outputs.
const SIDE_PREFIXES = ['subagents/', 'tool-results/', 'file-history/', 'chats/', 'tool-outputs/'];

/**
 * A side file's path relative to its session's folders, as manifests record it: forward slashes,
 * under `subagents/`, `tool-results/` or `file-history/`, and no empty, `.` or `..` part, so it can
 * never name a file outside those folders.
 */
export function isSafeSideRel(rel: unknown): rel is string {
  if (typeof rel !== 'string' || rel.length === 0 || rel.length > 1024 || /[\\\0]/.test(rel)) return false;
  if (!SIDE_PREFIXES.some((p) => rel.startsWith(p) && rel.length > p.length)) return false;
  return rel.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
}

function isAbsoluteClean(p: unknown): p is string {
  // Absolute, and already normal: no `.`/`..` part, no doubled slash, no NUL.
  return typeof p === 'string' && p.startsWith('/') && !p.includes('\0') && !p.includes('//') && !RELATIVE_PARTS.test(p) && p.length < 4096;
}

/**
 * Why a manifest read from the archive cannot be used, or null. `undo`, `verify` and `show` act on
 * the paths a manifest names, so each is checked: the fork path is an absolute path, named for the
 * fork id, where a fork of that original is written (naming.ts),
 * every side-file path stays under the session's own folders, every object name is a sha-256.
 */
export function manifestProblem(m: unknown, forkId: string, agents: AgentRegistry): string | null {
  if (typeof m !== 'object' || m === null) return 'not an object';
  const f = m as Partial<Record<keyof ForkManifest, unknown>> & { original?: Record<string, unknown>; fork?: Record<string, unknown> };
  if (f.version !== 1) return `version ${String(f.version)} is not 1`;
  if (f.kind !== 'clean' && f.kind !== 'undo') return 'kind is neither clean nor undo';
  if (f.forkId !== forkId || !ID.test(forkId)) return `its fork id is not ${forkId}`;
  // Named for the fork id as its agent names sessions (`<id>.jsonl`, Codex's rollout name, Gemini CLI's
  // `session-<minute>-<short id>.json[l]`): placementAllowed below checks the name with the place.
  if (!isAbsoluteClean(f.forkPath) || !agents.isSessionFileName(f.forkPath.slice(f.forkPath.lastIndexOf('/') + 1))) return 'forkPath is not an absolute path to a file named for the fork id';
  const o = f.original;
  if (!o || !SHA.test(String(o['sha256'])) || !isAbsoluteClean(o['path']) || !agents.isSessionFileName((o['path'] as string).slice((o['path'] as string).lastIndexOf('/') + 1))) return 'original is missing its path or sha-256';
  // A fork (and an undo) is written where its agent's client keeps sessions: beside the original, or
  // (Codex) in a date folder of the original's sessions folder. A manifest naming another place was edited.
  if (!placementAllowed(agents, o['path'] as string, f.forkPath as string, forkId)) return 'forkPath is not where Glassbox writes a fork of that original';
  if (o['mode'] !== undefined && (typeof o['mode'] !== 'number' || !Number.isInteger(o['mode']) || o['mode'] < 0 || o['mode'] > 0o777)) return 'original.mode is not a permission mode';
  if (!f.fork || !SHA.test(String(f.fork['sha256'])) || !Number.isInteger(f.fork['lines'])) return 'fork is missing its sha-256 or line count';
  if (!Array.isArray(f.sidecars)) return 'sidecars is not a list';
  for (const s of f.sidecars as { rel?: unknown; originalSha256?: unknown; forkSha256?: unknown }[]) {
    const rel = s?.rel;
    if (!isSafeSideRel(rel)) return `the side-file path ${JSON.stringify(rel)} leaves the session's folders`;
    if (!SHA.test(String(s.originalSha256)) || !SHA.test(String(s.forkSha256))) return `the side file ${rel} has no valid sha-256`;
  }
  if (!Array.isArray(f.actions)) return 'actions is not a list';
  for (const a of f.actions as { removed?: { sha256?: unknown }[]; elision?: { sha256?: unknown } }[]) {
    if (!Array.isArray(a?.removed) || a.removed.some((r) => !SHA.test(String(r?.sha256)))) return 'an action names an object that is not a sha-256';
    if (a.elision !== undefined && !SHA.test(String(a.elision?.sha256))) return 'an elision names an object that is not a sha-256';
  }
  return null;
}
