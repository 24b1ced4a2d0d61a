/** The compaction x-ray's values and argument checks (see docs/compactions.md). */
import type { CompactionHistory, CompactionSearch } from '@glassbox/core';

export interface CompactionsArgs {
  path: string;
}

export interface CompactionsView {
  /** The session's own history first, then each subagent file that compacted. */
  histories: CompactionHistory[];
  analysedAt: string;
}

export interface CompactionItemArgs {
  path: string;
  /** The thread: null for the session, a subagent's id. */
  agentId: string | null;
  /** The compaction (1-based) whose window held the item. */
  index: number;
  segmentId: string;
}

export interface CompactionItemText {
  /** The item as the model read it before the compaction (cut for display past the cap; `bytes` says how much there was). */
  text: string;
  bytes: number;
  truncated: boolean;
  uuid: string;
  line: number;
}

export interface CompactionFindArgs {
  path: string;
  query: string;
}

export type CompactionFindResult = CompactionSearch;

const MAX_PATH = 4096;
const MAX_QUERY = 500;

function asObject(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return 'arguments must be an object';
  return raw as Record<string, unknown>;
}

function checked(raw: unknown, keys: readonly string[]): Record<string, unknown> | string {
  const o = asObject(raw);
  if (typeof o === 'string') return o;
  for (const k of Object.keys(o)) if (!keys.includes(k)) return `unexpected argument "${k}"`;
  const path = o['path'];
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_PATH || path.includes('\0')) return 'path must be a non-empty string';
  return o;
}

export function compactionsArgs(raw: unknown): CompactionsArgs | string {
  const o = checked(raw, ['path']);
  return typeof o === 'string' ? o : { path: o['path'] as string };
}

export function compactionItemArgs(raw: unknown): CompactionItemArgs | string {
  const o = checked(raw, ['path', 'agentId', 'index', 'segmentId']);
  if (typeof o === 'string') return o;
  const agentId = o['agentId'];
  if (agentId !== null && (typeof agentId !== 'string' || agentId.length === 0 || agentId.length > 200)) return 'agentId must be a subagent id or null';
  const index = o['index'];
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 1 || index > 100_000) return 'index must be a whole number from 1';
  const segmentId = o['segmentId'];
  if (typeof segmentId !== 'string' || segmentId.length === 0 || segmentId.length > 300) return 'segmentId must be a non-empty string';
  return { path: o['path'] as string, agentId, index, segmentId };
}

export function compactionFindArgs(raw: unknown): CompactionFindArgs | string {
  const o = checked(raw, ['path', 'query']);
  if (typeof o === 'string') return o;
  const query = o['query'];
  if (typeof query !== 'string' || query.trim().length === 0 || query.length > MAX_QUERY) return `query must be a non-empty string of at most ${MAX_QUERY} characters`;
  return { path: o['path'] as string, query };
}
