import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { isFatal, type ClassifiedSnapshot, type Session } from '@glassbox/core';
import { findSessionById, loadSessionWithSubagents, projectRoots } from '@glassbox/adapter-claude-code/node';
import { analyzeSession, DEFAULT_PROTECT_TAIL, mergePriceTables, validatePriceTable, type PriceTable } from '@glassbox/analysis';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { UsageError } from './exit-codes';
import { repoRootResolver } from './mappings';
import type { CliIO } from './io';

/** Options every session command shares. */
export interface SessionOptions {
  repo?: string;
  withSpent?: boolean;
  protect?: string;
  json?: boolean;
}

export function addSessionOptions(cmd: Command): Command {
  return cmd
    .argument('<session>', 'a transcript file (.jsonl) or a session id (looked up under CLAUDE_CONFIG_DIR or ~/.claude)')
    .option('--repo <dir>', "map the session's working directory to this folder (a moved checkout)")
    .option('--with-spent', 'also mark inferred one-shot outputs as spent (never proven)')
    .option('--protect <n>', `never evict the last N API exchanges (default ${DEFAULT_PROTECT_TAIL})`)
    .option('--json', 'print JSON');
}

/** A path, or a session id found under the configured projects folders. */
export function resolveSessionPath(arg: string, io: CliIO): string {
  const asPath = resolve(arg);
  if (existsSync(asPath)) {
    if (statSync(asPath).isDirectory()) throw new UsageError(`${asPath}: is a folder; give a session file (.jsonl) or a session id`);
    return asPath;
  }
  if (/[\\/]/.test(arg) || arg.endsWith('.jsonl')) throw new UsageError(`${asPath}: no such file`);
  const roots = projectRoots(io.env);
  const { found } = findSessionById(arg, roots);
  if (found.length === 0) {
    throw new UsageError(`no session "${arg}" under ${roots.join(', ')} (set CLAUDE_CONFIG_DIR, or give the file's path)`);
  }
  if (found.length > 1) {
    const ids = [...new Set(found.map((f) => f.sessionId))];
    if (ids.length > 1) throw new UsageError(`"${arg}" matches several sessions: ${ids.slice(0, 5).join(', ')}`);
  }
  return (found[0] as { path: string }).path;
}

export interface LoadedAnalysis {
  session: Session;
  subagents: Session[];
  snapshot: ClassifiedSnapshot;
}

/** Parses and analyses a session; input that is not a usable transcript is a UsageError (exit 2). */
export function loadAndAnalyze(arg: string, opts: SessionOptions, io: CliIO): LoadedAnalysis {
  const path = resolveSessionPath(arg, io);
  const { session, subagents } = loadSessionWithSubagents(path);
  failOnFatal(session);
  const repo = opts.repo ? resolve(opts.repo) : null;
  if (repo && !existsSync(repo)) throw new UsageError(`--repo ${repo}: no such folder`);
  // --repo wins; else a folder mapping saved in the index (the same one the app's list uses).
  const repoRoot = repoRootResolver(repo, io.env)(session.cwd);
  const snapshot = analyzeSession(session, nodeAnalysisPorts(), {
    repoRoot,
    withSpent: opts.withSpent === true,
    protectTail: parseProtect(opts.protect),
    subagents,
  });
  return { session, subagents, snapshot };
}

export function failOnFatal(session: Session): void {
  if (isFatal(session.problems)) {
    const first = session.problems.find((p) => p.severity === 'error');
    throw new UsageError(first?.message ?? `${session.path}: cannot be read`);
  }
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
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${path}: cannot read the price table (${(error as Error).message})`);
  }
  const bad = validatePriceTable(raw);
  if (bad) throw new UsageError(`${path}: ${bad}`);
  return mergePriceTables(raw as PriceTable, base);
}
