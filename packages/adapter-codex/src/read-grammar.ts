import type { ReadOp } from '@glassbox/core';
import { sha256 } from './hash';
import { joinPath } from './paths';
import { splitPipeline, type Stage } from './shell-words';

/**
 * The strict grammar of commands whose whole output is a file's bytes (or numbered lines), so that
 * their outputs can be proven gone or stale like a Read (docs/codex/format.md, "Pure reads"):
 *
 *   cat F | cat -n F | nl -ba F
 *   sed -n 'Ap' F | sed -n 'A,Bp' F | sed -n 'A,$p' F
 *   head -n N F | head -N F | tail -n +K F | tail -n N F | tail -N F
 *   nl -ba F | sed -n 'A,Bp'   cat -n F | sed -n 'A,Bp'   (and `| head -n N`)
 *
 * One file, these flags only, no other pipe, redirection, expansion or chaining. Anything else is a
 * command. The output must also say exit code 0 and not be cut by Codex (checked by the caller).
 */
export interface ReadSpec {
  /** The file as written in the command. */
  path: string;
  /** The output lines carry `nl`/`cat -n` numbers. */
  numbered: boolean;
  /** 1-based first line, and the last requested line (null: to the end of the file). */
  start: number;
  end: number | null;
  /** `tail -n N`: the last N lines, whose position is only known when the file is shorter. */
  lastN?: number;
}

const SED_RANGE = /^(\d+)(?:,(\d+|\$))?p$/;
const COUNT = /^\d+$/;

export function matchPureRead(script: string): ReadSpec | null {
  const stages = splitPipeline(script);
  if (!stages) return null;
  if (stages.length === 1) return single(stages[0] as Stage);
  if (stages.length === 2) return numberedThenRange(stages[0] as Stage, stages[1] as Stage);
  return null;
}

function isPath(word: string): boolean {
  return word.length > 0 && !word.startsWith('-') && !/[*?[\]{}~$`\\]/.test(word);
}

function single(st: Stage): ReadSpec | null {
  const [cmd, ...args] = st;
  switch (cmd) {
    case 'cat':
      if (args.length === 1 && isPath(args[0] as string)) return { path: args[0] as string, numbered: false, start: 1, end: null };
      if (args.length === 2 && args[0] === '-n' && isPath(args[1] as string)) return { path: args[1] as string, numbered: true, start: 1, end: null };
      return null;
    case 'nl':
      if (args.length === 2 && args[0] === '-ba' && isPath(args[1] as string)) return { path: args[1] as string, numbered: true, start: 1, end: null };
      return null;
    case 'sed': {
      if (args.length !== 3 || args[0] !== '-n' || !isPath(args[2] as string)) return null;
      const r = sedRange(args[1] as string);
      return r ? { path: args[2] as string, numbered: false, ...r } : null;
    }
    case 'head': {
      const n = countArg(args);
      return n ? { path: n.path, numbered: false, start: 1, end: n.count } : null;
    }
    case 'tail': {
      if (args.length === 3 && args[0] === '-n' && /^\+\d+$/.test(args[1] as string) && isPath(args[2] as string)) {
        const k = Number((args[1] as string).slice(1));
        return k >= 1 ? { path: args[2] as string, numbered: false, start: k, end: null } : null;
      }
      const n = countArg(args);
      return n ? { path: n.path, numbered: false, start: 1, end: null, lastN: n.count } : null;
    }
    default:
      return null;
  }
}

/** `-n N F` or `-N F`, N ≥ 1. */
function countArg(args: string[]): { count: number; path: string } | null {
  let count: string | undefined;
  let path: string | undefined;
  if (args.length === 3 && args[0] === '-n') [, count, path] = args;
  else if (args.length === 2 && /^-\d+$/.test(args[0] as string)) {
    count = (args[0] as string).slice(1);
    path = args[1];
  }
  if (count === undefined || path === undefined || !COUNT.test(count) || !isPath(path)) return null;
  const n = Number(count);
  return n >= 1 ? { count: n, path } : null;
}

function sedRange(script: string): { start: number; end: number | null } | null {
  const m = SED_RANGE.exec(script);
  if (!m) return null;
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : m[2] === '$' ? null : Number(m[2]);
  if (start < 1 || (end !== null && end < start)) return null;
  return { start, end };
}

function numberedThenRange(first: Stage, second: Stage): ReadSpec | null {
  const base = single(first);
  if (!base || !base.numbered) return null;
  const [cmd, ...args] = second;
  if (cmd === 'sed' && args.length === 2 && args[0] === '-n') {
    const r = sedRange(args[1] as string);
    return r ? { ...base, ...r } : null;
  }
  if (cmd === 'head' && args.length === 2 && args[0] === '-n' && COUNT.test(args[1] as string) && Number(args[1]) >= 1) {
    return { ...base, start: 1, end: Number(args[1]) };
  }
  return null;
}

const NUMBERED_LINE = /^ *(\d+)\t(.*)$/s;

/**
 * The read a matched command's output proves, or null when the output does not fit the grammar's
 * promise (numbers out of order, more lines than asked, a `tail -n N` whose position is unknown).
 */
export function readFromOutput(spec: ReadSpec, body: string, cwd: string | null, keepText: boolean): ReadOp | null {
  const path = joinPath(cwd, spec.path);
  if (path === null) return null;
  const endsWithNewline = body.endsWith('\n');
  const rows = body === '' ? [] : (endsWithNewline ? body.slice(0, -1) : body).split('\n');
  let lines = rows;
  if (spec.numbered) {
    lines = [];
    for (const [i, row] of rows.entries()) {
      const m = NUMBERED_LINE.exec(row);
      if (!m || Number(m[1]) !== spec.start + i) return null;
      lines.push(m[2] as string);
    }
  }
  const asked = spec.end === null ? null : spec.end - spec.start + 1;
  if (asked !== null && lines.length > asked) return null;
  let start = spec.start;
  // The file ended before the range did: its length is known.
  let endOfFile = asked === null || lines.length < asked;
  if (spec.lastN !== undefined) {
    if (lines.length >= spec.lastN) return null;
    start = 1;
    endOfFile = true;
  }
  // Numbered output always ends lines with a newline, so a numbered capture never proves the
  // file's last byte: it is kept as a line range, never as the whole file.
  const full = endOfFile && start === 1 && !spec.numbered;
  const text = full ? body : lines.join('\n');
  const op: ReadOp = {
    kind: 'read',
    path,
    startLine: start,
    numLines: lines.length,
    totalLines: endOfFile && lines.length > 0 ? start + lines.length - 1 : null,
    full,
    unchanged: false,
    truncated: false,
    capturedHash: sha256(text),
  };
  if (keepText) op.capturedText = text;
  return op;
}
