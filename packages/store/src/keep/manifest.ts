/**
 * One kept version of a session, as `kept/<key>/<version>.json` in the archive records it: every file
 * of the session as a list of chunks (`[sha-256, bytes]`, in order), with the whole file's sha-256,
 * size, modification time and permission bits. Versions are immutable; a later keep writes a new one.
 */
export interface KeptManifest {
  version: 1;
  kind: 'kept';
  /** The agent whose session it is ('claude-code'). */
  agent: string;
  sessionId: string;
  keptAt: string;
  original: {
    path: string;
    /** The client's configuration folder the session lives in (null: one it never cleans). */
    configFolder: string | null;
    /** The project folder's name, and the working directory the session recorded. */
    project: string;
    cwd: string | null;
    title: string | null;
  };
  /** When the client would have deleted this version, as known when it was kept (null: never). */
  expiresAt: string | null;
  transcript: KeptFile;
  /** The session's other files, by the part names the agent gives them ('session-folder', 'file-history'). */
  parts: KeptPart[];
  /** Files left out, and why (a link, a FIFO, unreadable). */
  skipped: { path: string; reason: string }[];
}

export interface KeptPart {
  name: string;
  kind: 'folder' | 'file';
  files: KeptFile[];
}

export interface KeptFile {
  /** The path inside its part (`subagents/agent-1.jsonl`); '' for the transcript and for a file part. */
  rel: string;
  bytes: number;
  sha256: string;
  mtimeMs: number;
  mode: number;
  chunks: [string, number][];
}

const SHA = /^[0-9a-f]{64}$/;
const PART_NAME = /^[a-z][a-z-]{0,40}(\/[A-Za-z0-9_.-]{1,200})?$/;

/** A path inside a part: relative, forward slashes, no empty, `.` or `..` part, so it never leaves the part. */
function isSafeRel(rel: unknown): rel is string {
  if (typeof rel !== 'string' || rel.length > 1024 || /[\\\0]/.test(rel)) return false;
  if (rel === '') return true;
  return rel.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
}

function isAbsoluteClean(p: unknown): p is string {
  return typeof p === 'string' && p.startsWith('/') && !p.includes('\0') && !p.includes('//') && !/(^|\/)\.\.?(\/|$)/.test(p) && p.length < 4096;
}

function fileProblem(f: unknown, where: string): string | null {
  if (typeof f !== 'object' || f === null) return `${where} is not an object`;
  const k = f as Partial<Record<keyof KeptFile, unknown>>;
  if (!isSafeRel(k.rel)) return `${where} has a path that leaves its folder`;
  if (!SHA.test(String(k.sha256))) return `${where} has no valid sha-256`;
  if (!Number.isInteger(k.bytes) || (k.bytes as number) < 0) return `${where} has no valid size`;
  if (!Number.isInteger(k.mode) || (k.mode as number) < 0 || (k.mode as number) > 0o777) return `${where} has no valid permission bits`;
  if (typeof k.mtimeMs !== 'number' || !Number.isFinite(k.mtimeMs)) return `${where} has no modification time`;
  if (!Array.isArray(k.chunks)) return `${where} has no chunk list`;
  let total = 0;
  for (const c of k.chunks as unknown[]) {
    if (!Array.isArray(c) || c.length !== 2 || !SHA.test(String(c[0])) || !Number.isInteger(c[1]) || (c[1] as number) <= 0) return `${where} names a chunk that is not [sha-256, bytes]`;
    total += c[1] as number;
  }
  if (total !== k.bytes) return `${where}'s chunks add up to ${total} bytes, not ${String(k.bytes)}`;
  return null;
}

/**
 * Why a kept manifest cannot be used, or null. Restore writes where a manifest says, so every path is
 * checked: the original is an absolute `.jsonl` path, parts have known-shaped names and relative paths
 * that stay inside them, every chunk is a sha-256 with a size, and the sizes add up.
 */
export function keptManifestProblem(m: unknown): string | null {
  if (typeof m !== 'object' || m === null) return 'not an object';
  const k = m as Partial<Record<keyof KeptManifest, unknown>>;
  if (k.version !== 1 || k.kind !== 'kept') return 'not a version 1 kept manifest';
  if (typeof k.agent !== 'string' || !/^[a-z][a-z0-9-]{0,40}$/.test(k.agent)) return 'agent is missing';
  if (typeof k.sessionId !== 'string' || k.sessionId.length === 0 || k.sessionId.length > 200) return 'sessionId is missing';
  if (typeof k.keptAt !== 'string' || Number.isNaN(Date.parse(k.keptAt))) return 'keptAt is not a time';
  const o = k.original as Record<string, unknown> | undefined;
  if (!o || !isAbsoluteClean(o['path']) || !/\.jsonl$/i.test(o['path'] as string)) return 'original.path is not an absolute .jsonl path';
  if (o['configFolder'] !== null && !isAbsoluteClean(o['configFolder'])) return 'original.configFolder is not an absolute path';
  const problem = fileProblem(k.transcript, 'the transcript');
  if (problem) return problem;
  if ((k.transcript as KeptFile).rel !== '') return 'the transcript has a relative path';
  if (!Array.isArray(k.parts)) return 'parts is not a list';
  for (const p of k.parts as Partial<KeptPart>[]) {
    if (typeof p?.name !== 'string' || !PART_NAME.test(p.name)) return `the part name ${JSON.stringify(p?.name)} is not one Glassbox writes`;
    if (p.kind !== 'folder' && p.kind !== 'file') return `the part ${p.name} is neither a folder nor a file`;
    if (!Array.isArray(p.files)) return `the part ${p.name} has no file list`;
    for (const f of p.files) {
      const fp = fileProblem(f, `a file of ${p.name}`);
      if (fp) return fp;
      if (p.kind === 'folder' && (f as KeptFile).rel === '') return `a file of the folder ${p.name} has no name`;
      if (p.kind === 'file' && (f as KeptFile).rel !== '') return `the file part ${p.name} names a path inside it`;
    }
  }
  if (!Array.isArray(k.skipped)) return 'skipped is not a list';
  return null;
}

/** Every file of a version with where it sits: the transcript, then each part's files. */
export function filesOf(m: KeptManifest): { part: string | null; kind: 'folder' | 'file' | null; file: KeptFile }[] {
  return [{ part: null, kind: null, file: m.transcript }, ...m.parts.flatMap((p) => p.files.map((file) => ({ part: p.name, kind: p.kind, file })))];
}
