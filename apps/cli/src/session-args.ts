import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ClassifiedSnapshot, Session } from '@glassbox/core';
import type { AnalyzeRequest } from '@glassbox/engine';
import { fileKind } from '@glassbox/store';
import { DEFAULT_PROTECT_TAIL, mergePriceTables, validatePriceTable, type PriceTable } from '@glassbox/analysis';
import { AGENTS } from './agents';
import { glassboxFor } from './engine';
import { UsageError } from './exit-codes';
import { keptSessionPath } from './kept-support';
import type { CliIO } from './io';

/** Options every session command shares. */
export interface SessionOptions {
  repo?: string;
  /** `--with-spent`: also run the inferred classes (analysis `withInferred`). */
  withSpent?: boolean;
  protect?: string;
  json?: boolean;
  model?: string;
}

export function addSessionOptions(cmd: Command): Command {
  return cmd
    .argument('<session>', 'a transcript file (.jsonl) or a session id (looked up under CLAUDE_CONFIG_DIR or ~/.claude, and CODEX_HOME or ~/.codex)')
    .option('--repo <dir>', "map the session's working directory to this folder (a moved checkout)")
    .option('--with-spent', 'also mark inferred one-shot outputs as spent (never proven)')
    .option('--protect <n>', `never evict the last N API exchanges (default ${DEFAULT_PROTECT_TAIL})`)
    .option('--model <id>', "the model of the next request, e.g. claude-sonnet-4-6 (only its own reasoning is sent); default: the one Claude Code would resume on")
    .option('--json', 'print JSON');
}

/**
 * A path, or a session id found under the configured projects folders. Only regular files are ever
 * read: a FIFO would block the read forever and a device never ends, so anything else (the session
 * or one of its subagent files) is bad input, named. An id found in more than one project folder is
 * ambiguous: the candidates are listed, none is picked.
 */
export function resolveSessionPath(arg: string, io: CliIO): string {
  const asPath = resolve(arg);
  if (existsSync(asPath)) return regularSession(asPath);
  if (/[\\/]/.test(arg) || arg.endsWith('.jsonl')) {
    // A session file that is gone, kept in the archive: read from the archive's copy.
    const kept = keptSessionPath(asPath, io);
    if (kept) return regularSession(kept);
    throw new UsageError(`${asPath}: no such file`);
  }
  const { found, roots } = glassboxFor(io).sessions.findById(arg);
  if (found.length === 0) {
    // Kept in the archive: its original if still there, else the archive's read-only copy.
    const kept = keptSessionPath(arg, io);
    if (kept) return regularSession(kept);
    throw new UsageError(`no session "${arg}" under ${roots.join(', ')} (set CLAUDE_CONFIG_DIR or CODEX_HOME, or give the file's path)`);
  }
  const candidates = found;
  if (candidates.length > 1) {
    const list = candidates.slice(0, 8).map((c) => `  ${c.path}`).join('\n');
    const more = candidates.length > 8 ? `\n  … and ${candidates.length - 8} more` : '';
    throw new UsageError(`"${arg}" matches ${candidates.length} session files; give the path of the one you mean:\n${list}${more}`);
  }
  return regularSession((candidates[0] as { path: string }).path);
}

function regularSession(path: string): string {
  const st = statSync(path);
  if (st.isDirectory()) throw new UsageError(`${path}: is a folder; give a session file (.jsonl) or a session id`);
  if (!st.isFile()) throw new UsageError(`${path}: is ${fileKind(st)}, not a regular file; only transcript files are read`);
  // Files read with it (its subagents'): checked by their folder entries, without opening any.
  for (const sub of AGENTS.forFile(path).locator.companionFiles?.(path) ?? []) {
    // A missing or unreadable one is reported by the loader as a problem; only what would block is refused.
    let s;
    try {
      s = statSync(sub, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (s && !s.isFile() && !s.isDirectory()) {
      throw new UsageError(`${sub}: this subagent file is ${fileKind(s)}, not a regular file; only transcript files are read`);
    }
  }
  return path;
}

export interface LoadedAnalysis {
  session: Session;
  subagents: Session[];
  snapshot: ClassifiedSnapshot;
}

/** The window of a session as `--repo`, `--with-spent`, `--protect` and `--model` ask for it. */
export function analyzeRequest(opts: SessionOptions, io: CliIO): Omit<AnalyzeRequest, 'repoRoot'> & { repoRootFor: (cwd: string | null) => string | null } {
  // --repo wins; else a folder mapping saved in the index (the same one the app's list uses).
  return {
    repoRootFor: glassboxFor(io).mappings.resolver(opts.repo ? resolve(opts.repo) : null),
    withInferred: opts.withSpent === true,
    protectTail: parseProtect(opts.protect),
    ...modelOption(opts.model),
  };
}

/** Parses and analyses a session; input that is not a usable transcript is refused as bad input (exit 2). */
export function loadAndAnalyze(arg: string, opts: SessionOptions, io: CliIO): LoadedAnalysis {
  const path = resolveSessionPath(arg, io);
  const sessions = glassboxFor(io).sessions;
  const { loaded } = sessions.open(path);
  const { repoRootFor, ...request } = analyzeRequest(opts, io);
  const snapshot = sessions.analyze(loaded, { ...request, repoRoot: repoRootFor(loaded.session.cwd) });
  return { session: loaded.session, subagents: loaded.subagents, snapshot };
}

/** `--model`: an API model id (letters, digits, dots, dashes; an optional `[1m]`-style suffix). */
export function modelOption(value: string | undefined): { model?: string } {
  if (value === undefined) return {};
  if (!/^[A-Za-z0-9._:@/-]{1,100}(\[[0-9a-z]{1,8}\])?$/.test(value)) throw new UsageError(`--model ${value}: give a model id such as claude-sonnet-4-6`);
  return { model: value };
}


export function parseProtect(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PROTECT_TAIL;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--protect ${value}: give a whole number of exchanges (0 or more)`);
  return n;
}

/** The price table: the agent's own, or a user file merged over it (--prices or GLASSBOX_PRICES). */
export function loadPrices(file: string | undefined, io: CliIO, base: PriceTable): PriceTable {
  const path = file ?? io.env['GLASSBOX_PRICES'];
  if (!path) return base;
  let raw: unknown;
  try {
    raw = JSON.parse(readPriceFile(path));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path}: cannot read the price table (${(error as Error).message})`);
  }
  const bad = validatePriceTable(raw);
  if (bad) throw new UsageError(`${path}: ${bad}`);
  return mergePriceTables(raw as PriceTable, base);
}

/** A price table is a small JSON file: this much at most. */
const PRICE_TABLE_MAX_BYTES = 1024 * 1024;

/**
 * The text of a price table, read only from a regular file of at most PRICE_TABLE_MAX_BYTES: a FIFO
 * (opened without blocking), a device such as /dev/zero or a huge file is refused, never read until it
 * ends or fills memory.
 */
function readPriceFile(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`${path}: the price table must be a regular file, and this is ${fileKind(st)}`);
    if (st.size > PRICE_TABLE_MAX_BYTES) throw new UsageError(`${path}: the price table is ${st.size} bytes; a price table is at most ${PRICE_TABLE_MAX_BYTES} bytes`);
    const buf = Buffer.alloc(st.size);
    let at = 0;
    for (let n = 1; at < buf.length && n > 0; at += n) n = readSync(fd, buf, at, buf.length - at, at);
    return buf.toString('utf8', 0, at);
  } finally {
    closeSync(fd);
  }
}
