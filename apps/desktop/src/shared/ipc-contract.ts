/**
 * The one contract between the renderer and the engine host, shared by Electron main, the preload, the
 * browser-mode HTTP server and the renderer. It holds types, the runtime channel lists (checked by the
 * compiler against the type maps) and the argument validators main and the HTTP server run before any
 * handler sees a value. No I/O here: the renderer imports this file too.
 */
import type { ClassifiedSnapshot, DeadClass, Problem, Segment, SegmentClass } from '@glassbox/core';

// ---------------------------------------------------------------------------------------------------
// Results

export type IpcErrorCode =
  | 'bad_args'
  | 'unknown_channel'
  | 'not_found'
  | 'not_jsonl'
  | 'not_a_transcript'
  | 'unreadable'
  | 'changed'
  | 'refused'
  | 'unavailable'
  | 'internal';

export interface IpcError {
  code: IpcErrorCode;
  /** What happened, in one sentence a user can read. */
  message: string;
  /** What to do about it, when there is something to do. */
  hint?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}
export function fail<T = never>(code: IpcErrorCode, message: string, hint?: string): Result<T> {
  return { ok: false, error: hint === undefined ? { code, message } : { code, message, hint } };
}

// ---------------------------------------------------------------------------------------------------
// Values

export type SessionSort = 'activity' | 'size' | 'context' | 'reclaimable';
export const SESSION_SORTS: readonly SessionSort[] = ['activity', 'size', 'context', 'reclaimable'];

/** One line of the session browser. Figures are from the index (or a scan) so the list opens at once. */
export interface SessionRow {
  id: string;
  path: string;
  /** The projects-folder name (the slug), and a readable project name from the working directory. */
  projectDir: string;
  project: string;
  cwd: string | null;
  title: string | null;
  /** ISO time of the last record, else of the file's mtime. */
  lastActivity: string | null;
  bytes: number;
  /** Provider-reported context of the last response. */
  contextTokens: number | null;
  estimatedTokens: number;
  reclaimableTokens: number;
  /** 0..1 of the context (reported when known, else estimated). */
  reclaimableShare: number;
  /** Written to in the last few minutes. */
  live: boolean;
  /** A fork written by Glassbox. */
  fork: boolean;
  subagents: number;
  /** Fatal or error problems found while summarising; the row still shows. */
  problem: string | null;
}

export interface IndexProgress {
  phase: 'idle' | 'scanning' | 'indexing' | 'done';
  done: number;
  total: number;
  /** What is being done now (a stage, or the file being read), for the status line. */
  current?: string;
}

export interface SessionsListArgs {
  query?: string;
  sort?: SessionSort;
}

export interface SessionsListResult {
  sessions: SessionRow[];
  /** Where the host looked, for the empty state. */
  roots: string[];
  progress: IndexProgress;
  /** Bundled sample sessions exist (offered when the machine has none). */
  samples: SampleSession[];
}

export interface SampleSession {
  name: string;
  description: string;
  path: string;
}

export interface SnapshotArgs {
  path: string;
  /** Include the inferred `spent` class. */
  withSpent?: boolean;
  /** The model of the next request (only its own reasoning is sent); default: the one the client would resume on. */
  model?: string;
}

/** What the window view needs: the engine's snapshot plus how it was opened. */
export interface SnapshotView {
  snapshot: ClassifiedSnapshot;
  /** The file is not under a projects root (dropped or opened by path). */
  external: boolean;
  /** Where the working directory was looked up ("as recorded", or a mapped folder). */
  repoNote: string;
  bytes: number;
  /** Byte size of the file when analysed, so a later append can be told apart. */
  analysedAt: string;
}

export interface SegmentDetailArgs {
  path: string;
  segmentId: string;
}

export interface SegmentDetail {
  segment: Segment;
  /** The payload as the model sees it: text, a tool result, a tool input rendered as JSON. */
  content: string;
  contentBytes: number;
  /** The content was cut for display (over the display cap); its size says how much there was. */
  truncated: boolean;
  /** The proof in one plain sentence; for live segments, why it stays. */
  explanation: string;
  /** A segment that proves this one dead (the later read, the kept copy), to jump to. */
  provedBy: { segmentId: string; line: number; label: string } | null;
}

export interface ForkArgs {
  path: string;
  classes: DeadClass[];
  /** User turns at the end that are never touched. */
  protectTail?: number;
}

export interface ForkCheck {
  id: string;
  label: string;
  ok: boolean;
  detail: string;
}

export interface ForkRemoval {
  segmentId: string;
  line: number;
  class: DeadClass;
  source: string;
  tokensFreed: number;
}

export interface ForkPreview {
  sessionId: string;
  classes: DeadClass[];
  tokensBefore: number;
  tokensAfter: number;
  reclaimed: number;
  tombstoneTokens: number;
  netReclaimed: number;
  actions: number;
  largest: ForkRemoval[];
  reasons: string[];
  /** Every gate the fork must pass; writing is refused unless all pass. */
  checks: ForkCheck[];
  canWrite: boolean;
}

export interface ForkWritten {
  sessionId: string;
  path: string;
  /** The command that resumes the fork, ready to paste. */
  resumeCommand: string;
  checks: ForkCheck[];
  netReclaimed: number;
}

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

// ---------------------------------------------------------------------------------------------------
// Channels

export interface InvokeMap {
  'host:info': { args: Record<string, never>; result: HostInfo };
  'sessions:list': { args: SessionsListArgs; result: SessionsListResult };
  'sessions:refresh': { args: Record<string, never>; result: IndexProgress };
  'session:snapshot': { args: SnapshotArgs; result: SnapshotView };
  'segment:detail': { args: SegmentDetailArgs; result: SegmentDetail };
  'fork:preview': { args: ForkArgs; result: ForkPreview };
  'fork:write': { args: ForkArgs; result: ForkWritten };
  'file:open': { args: FileOpenArgs; result: FileOpened };
  'repo:map': { args: RepoMapArgs; result: HostInfo };
}
export type InvokeChannel = keyof InvokeMap;
export type ArgsOf<C extends InvokeChannel> = InvokeMap[C]['args'];
export type ResultOf<C extends InvokeChannel> = InvokeMap[C]['result'];

export interface SessionChanged {
  path: string;
  /** The row as it is now, or null when the file went away. */
  row: SessionRow | null;
  reason: 'appended' | 'added' | 'removed' | 'changed';
}

/** A menu item or the OS asked the window to do something (Electron only). */
export interface AppCommand {
  command: 'open-path' | 'fork' | 'search' | 'refresh';
  path?: string;
}

export interface EventMap {
  'index:progress': IndexProgress;
  'session:changed': SessionChanged;
  'app:command': AppCommand;
}
export type EventChannel = keyof EventMap;

/** Each key of a type exactly once: the compiler rejects a list that misses or invents a channel. */
type Exhaustive<K extends string, L extends readonly string[]> = [K] extends [L[number]]
  ? [L[number]] extends [K]
    ? L
    : never
  : never;

const invokeChannels = [
  'host:info',
  'sessions:list',
  'sessions:refresh',
  'session:snapshot',
  'segment:detail',
  'fork:preview',
  'fork:write',
  'file:open',
  'repo:map',
] as const;
const eventChannels = ['index:progress', 'session:changed', 'app:command'] as const;

export const INVOKE_CHANNELS: Exhaustive<InvokeChannel, typeof invokeChannels> = invokeChannels;
export const EVENT_CHANNELS: Exhaustive<EventChannel, typeof eventChannels> = eventChannels;

export function isInvokeChannel(name: unknown): name is InvokeChannel {
  return typeof name === 'string' && (INVOKE_CHANNELS as readonly string[]).includes(name);
}
export function isEventChannel(name: unknown): name is EventChannel {
  return typeof name === 'string' && (EVENT_CHANNELS as readonly string[]).includes(name);
}

/** The API the preload exposes as `window.glassbox`, and the HTTP transport implements in browser mode. */
export interface GlassboxApi {
  invoke<C extends InvokeChannel>(channel: C, args: ArgsOf<C>): Promise<Result<ResultOf<C>>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void;
  /** Electron only: the path of a dropped File (browser files have none). */
  pathForFile?(file: File): string | null;
}

// ---------------------------------------------------------------------------------------------------
// Argument validation: the host never trusts what crosses the boundary.

const DEAD_CLASSES: readonly DeadClass[] = ['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'];
const MAX_PATH = 4096;
/** Dropped bytes travel as text; larger files must be opened by path (Electron, or `glassbox ui <file>`). */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

type Validator<C extends InvokeChannel> = (raw: unknown) => ArgsOf<C> | string;

function obj(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return 'arguments must be an object';
  return raw as Record<string, unknown>;
}

function onlyKeys(o: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of Object.keys(o)) if (!keys.includes(k)) return `unexpected argument "${k}"`;
  return null;
}

function pathArg(v: unknown, name = 'path'): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_PATH || v.includes('\0')) return null;
  void name;
  return v;
}

function classesArg(v: unknown): DeadClass[] | string {
  if (!Array.isArray(v)) return 'classes must be an array';
  const out: DeadClass[] = [];
  for (const c of v) {
    if (!DEAD_CLASSES.includes(c as DeadClass)) return `unknown class "${String(c)}"`;
    if (!out.includes(c as DeadClass)) out.push(c as DeadClass);
  }
  return out;
}

function protectArg(v: unknown): number | undefined | string {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 1000) return 'protectTail must be a whole number 0–1000';
  return v;
}

function none<C extends InvokeChannel>(): Validator<C> {
  return (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    return onlyKeys(o, []) ?? ({} as ArgsOf<C>);
  };
}

const forkArgs = (raw: unknown): ForkArgs | string => {
  const o = obj(raw);
  if (typeof o === 'string') return o;
  const extra = onlyKeys(o, ['path', 'classes', 'protectTail']);
  if (extra) return extra;
  const path = pathArg(o['path']);
  if (!path) return 'path must be a non-empty string';
  const classes = classesArg(o['classes']);
  if (typeof classes === 'string') return classes;
  const protectTail = protectArg(o['protectTail']);
  if (typeof protectTail === 'string') return protectTail;
  return protectTail === undefined ? { path, classes } : { path, classes, protectTail };
};

export const VALIDATORS: { [C in InvokeChannel]: Validator<C> } = {
  'host:info': none(),
  'sessions:refresh': none(),
  'sessions:list': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['query', 'sort']);
    if (extra) return extra;
    const out: SessionsListArgs = {};
    if (o['query'] !== undefined) {
      if (typeof o['query'] !== 'string' || o['query'].length > 500) return 'query must be a string';
      out.query = o['query'];
    }
    if (o['sort'] !== undefined) {
      if (!SESSION_SORTS.includes(o['sort'] as SessionSort)) return `sort must be one of ${SESSION_SORTS.join(', ')}`;
      out.sort = o['sort'] as SessionSort;
    }
    return out;
  },
  'session:snapshot': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['path', 'withSpent', 'model']);
    if (extra) return extra;
    const path = pathArg(o['path']);
    if (!path) return 'path must be a non-empty string';
    if (o['withSpent'] !== undefined && typeof o['withSpent'] !== 'boolean') return 'withSpent must be true or false';
    const out: SnapshotArgs = { path };
    if (o['withSpent'] !== undefined) out.withSpent = o['withSpent'];
    if (o['model'] !== undefined) {
      if (typeof o['model'] !== 'string' || !/^[A-Za-z0-9._:@/-]{1,100}(\[[0-9a-z]{1,8}\])?$/.test(o['model'])) return 'model must be a model id such as claude-sonnet-4-6';
      out.model = o['model'];
    }
    return out;
  },
  'segment:detail': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['path', 'segmentId']);
    if (extra) return extra;
    const path = pathArg(o['path']);
    if (!path) return 'path must be a non-empty string';
    if (typeof o['segmentId'] !== 'string' || o['segmentId'].length === 0 || o['segmentId'].length > 300) {
      return 'segmentId must be a non-empty string';
    }
    return { path, segmentId: o['segmentId'] };
  },
  'fork:preview': forkArgs,
  'fork:write': forkArgs,
  'file:open': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    if ('path' in o) {
      const extra = onlyKeys(o, ['path']);
      if (extra) return extra;
      const path = pathArg(o['path']);
      return path ? { path } : 'path must be a non-empty string';
    }
    const extra = onlyKeys(o, ['name', 'text']);
    if (extra) return extra;
    if (typeof o['name'] !== 'string' || o['name'].length === 0 || o['name'].length > 1000) return 'name must be a string';
    if (typeof o['text'] !== 'string') return 'text must be a string';
    if (o['text'].length > MAX_UPLOAD_BYTES) return 'the file is too large to send from a browser; open it by path';
    return { name: o['name'], text: o['text'] };
  },
  'repo:map': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['cwd', 'folder']);
    if (extra) return extra;
    const cwd = pathArg(o['cwd']);
    if (!cwd) return 'cwd must be a non-empty string';
    if (o['folder'] === null) return { cwd, folder: null };
    const folder = pathArg(o['folder']);
    return folder ? { cwd, folder } : 'folder must be a path or null';
  },
};

/** Validates the arguments of a channel: the typed value, or an error result to send back. */
export function validateArgs<C extends InvokeChannel>(channel: C, raw: unknown): { args: ArgsOf<C> } | { error: IpcError } {
  const v = VALIDATORS[channel](raw);
  if (typeof v === 'string') return { error: { code: 'bad_args', message: `${channel}: ${v}` } };
  return { args: v };
}

/** Classes in display order, for legends and the wizard. */
export const CLASS_ORDER: readonly SegmentClass[] = ['live', 'gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent'];
