/** Argument validation: the host never trusts what crosses the boundary. */
import { DEAD_CLASSES, SEGMENT_CLASSES, type DeadClass, type SegmentClass } from '@glassbox/core';
import type { IpcError } from './results';
import type { ArgsOf, InvokeChannel } from './channels';
import { compactionFindArgs, compactionItemArgs, compactionsArgs } from './compactions';
import { usageReportArgs } from './usage';
import { EXPORT_FORMAT_VIEWS, type SessionExportArgs } from './session-views';
import { SESSION_SORTS, SIDEBAR_MAX_PX, SIDEBAR_MIN_PX, type ElideArgs, type ElisionPreviewArgs, type ForkArgs, type SessionSort, type SessionsListArgs, type SnapshotArgs } from './values';

const MAX_PATH = 4096;
/** An API model id, with an optional context suffix such as `[1m]`. */
const MODEL_ID = /^[A-Za-z0-9._:@/-]{1,100}(\[[0-9a-z]{1,8}\])?$/;
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

/** Elision's thresholds, each a whole number in a range a person could mean. */
const ELIDE_LIMITS: Record<keyof ElideArgs, [number, number]> = { overTokens: [1, 10_000_000], keepChars: [0, 1_000_000], keepLines: [0, 100_000] };

function elideArg(v: unknown): ElideArgs | undefined | string {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'elide must be an object';
  const o = v as Record<string, unknown>;
  const extra = onlyKeys(o, Object.keys(ELIDE_LIMITS));
  if (extra) return `elide: ${extra}`;
  const out: Partial<ElideArgs> = {};
  for (const [k, [min, max]] of Object.entries(ELIDE_LIMITS) as [keyof ElideArgs, [number, number]][]) {
    const n = o[k];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) return `elide.${k} must be a whole number ${min}–${max.toLocaleString('en-US')}`;
    out[k] = n;
  }
  return out as ElideArgs;
}

const forkArgs = (raw: unknown): ForkArgs | string => {
  const o = obj(raw);
  if (typeof o === 'string') return o;
  const extra = onlyKeys(o, ['path', 'classes', 'protectTail', 'elide']);
  if (extra) return extra;
  const path = pathArg(o['path']);
  if (!path) return 'path must be a non-empty string';
  const classes = classesArg(o['classes']);
  if (typeof classes === 'string') return classes;
  const protectTail = protectArg(o['protectTail']);
  if (typeof protectTail === 'string') return protectTail;
  const elide = elideArg(o['elide']);
  if (typeof elide === 'string') return elide;
  const out: ForkArgs = { path, classes };
  if (protectTail !== undefined) out.protectTail = protectTail;
  if (elide !== undefined) out.elide = elide;
  return out;
};

const elisionPreviewArgs = (raw: unknown): ElisionPreviewArgs | string => {
  const o = obj(raw);
  if (typeof o === 'string') return o;
  const extra = onlyKeys(o, ['path', 'protectTail', 'elide']);
  if (extra) return extra;
  const path = pathArg(o['path']);
  if (!path) return 'path must be a non-empty string';
  const protectTail = protectArg(o['protectTail']);
  if (typeof protectTail === 'string') return protectTail;
  const elide = elideArg(o['elide']);
  if (typeof elide === 'string') return elide;
  const out: ElisionPreviewArgs = { path };
  if (protectTail !== undefined) out.protectTail = protectTail;
  if (elide !== undefined) out.elide = elide;
  return out;
};

function exportArgs(raw: unknown): SessionExportArgs | string {
  const o = obj(raw);
  if (typeof o === 'string') return o;
  const extra = onlyKeys(o, ['path', 'format']);
  if (extra) return extra;
  const path = pathArg(o['path']);
  if (!path) return 'path must be a non-empty string';
  const format = EXPORT_FORMAT_VIEWS.find((f) => f === o['format']);
  return format ? { path, format } : `format must be one of ${EXPORT_FORMAT_VIEWS.join(', ')}`;
}

function forkRef(raw: unknown): { path: string } | string {
  const o = obj(raw);
  if (typeof o === 'string') return o;
  const extra = onlyKeys(o, ['path']);
  if (extra) return extra;
  const path = pathArg(o['path']);
  return path ? { path } : 'path must be a non-empty string';
}

export const VALIDATORS: { [C in InvokeChannel]: Validator<C> } = {
  'session:cost': forkRef,
  'session:conversation': forkRef,
  'session:export': exportArgs,
  'host:info': none(),
  'host:sync': none(),
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
    const extra = onlyKeys(o, ['path', 'withInferred', 'model']);
    if (extra) return extra;
    const path = pathArg(o['path']);
    if (!path) return 'path must be a non-empty string';
    if (o['withInferred'] !== undefined && typeof o['withInferred'] !== 'boolean') return 'withInferred must be true or false';
    const out: SnapshotArgs = { path };
    if (o['withInferred'] !== undefined) out.withInferred = o['withInferred'];
    if (o['model'] !== undefined) {
      if (typeof o['model'] !== 'string' || !MODEL_ID.test(o['model'])) return 'model must be a model id such as claude-sonnet-4-6';
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
  'fork:elision-preview': elisionPreviewArgs,
  'fork:verify': (raw) => forkRef(raw),
  'fork:write-original': (raw) => forkRef(raw),
  'fork:remove': (raw) => forkRef(raw),
  'fork:payload': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['path', 'segmentId']);
    if (extra) return extra;
    const path = pathArg(o['path']);
    if (!path) return 'path must be a non-empty string';
    if (typeof o['segmentId'] !== 'string' || o['segmentId'].length === 0 || o['segmentId'].length > 300) return 'segmentId must be a non-empty string';
    return { path, segmentId: o['segmentId'] };
  },
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
  'job:cancel': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['id']);
    if (extra) return extra;
    if (typeof o['id'] !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(o['id'])) return 'id must be a job id';
    return { id: o['id'] };
  },
  'session:keep': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['paths']);
    if (extra) return extra;
    const paths = o['paths'];
    if (!Array.isArray(paths) || paths.length === 0 || paths.length > MAX_KEEP_PATHS) return `paths must be a list of 1–${MAX_KEEP_PATHS} paths`;
    const out: string[] = [];
    for (const p of paths) {
      const path = pathArg(p);
      if (!path) return 'every path must be a non-empty string';
      out.push(path);
    }
    return { paths: out };
  },
  'session:restore': (raw) => forkRef(raw),
  'retention:info': none(),
  'proxy:conversations': none(),
  'retention:auto-keep': (raw) => {
    const o = obj(raw);
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['enabled']);
    if (extra) return extra;
    return typeof o['enabled'] === 'boolean' ? { enabled: o['enabled'] } : 'enabled must be true or false';
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
  'session:compactions': compactionsArgs,
  'compaction:item': compactionItemArgs,
  'compaction:find': compactionFindArgs,
  'usage:report': usageReportArgs,
  'window:layout': (raw) => {
    const o = obj(raw ?? {});
    if (typeof o === 'string') return o;
    const extra = onlyKeys(o, ['sidebarWidth']);
    if (extra) return extra;
    const w = o['sidebarWidth'];
    if (w === undefined) return {};
    if (typeof w !== 'number' || !Number.isFinite(w) || w < SIDEBAR_MIN_PX || w > SIDEBAR_MAX_PX) return `sidebarWidth must be a number of pixels from ${SIDEBAR_MIN_PX} to ${SIDEBAR_MAX_PX}`;
    return { sidebarWidth: Math.round(w) };
  },
};

/** At most this many sessions in one keep request (the window keeps one; "keep all" goes through auto-keep or the CLI). */
export const MAX_KEEP_PATHS = 500;

/** Validates the arguments of a channel: the typed value, or an error result to send back. */
export function validateArgs<C extends InvokeChannel>(channel: C, raw: unknown): { args: ArgsOf<C> } | { error: IpcError } {
  const v = VALIDATORS[channel](raw);
  if (typeof v === 'string') return { error: { code: 'bad_args', message: `${channel}: ${v}` } };
  return { args: v };
}

/** Classes in display order, for legends and the wizard (from the class registry). */
export const CLASS_ORDER: readonly SegmentClass[] = SEGMENT_CLASSES;
