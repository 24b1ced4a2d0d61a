import { Stage } from './stage';
import type { BriefFileRow, FileRow } from './statements';
import type { KeptMark, RetentionMark } from '../keep/marks';

/** One session (or subagent) file as the browser and the CLI see it. Exact figures; format at display. */
export interface SessionRow {
  /** The index's row id (stable while the file keeps its path and is not re-indexed from scratch). */
  rowId: number;
  /** The agent whose session it is: 'claude-code', 'codex'. */
  agent: string;
  path: string;
  /** The projects root it was found under; null for a file opened from elsewhere. */
  root: string | null;
  origin: 'discovered' | 'opened';
  kind: 'session' | 'subagent';
  /** For subagents: the session file they belong to. */
  parentPath: string | null;
  agentId: string | null;
  sessionId: string;
  /** The project folder's name (Claude Code's slug of the working directory). */
  project: string;
  cwd: string | null;
  gitBranch: string | null;
  version: string | null;
  title: string | null;
  firstPrompt: string | null;
  firstActivity: string | null;
  /** The newest record timestamp, else the file's mtime (ISO). */
  lastActivity: string;
  size: number;
  mtimeMs: number;
  /**
   * 'unreadable' (see problemNote), 'listed' (opening and closing records read: identity, last
   * activity, context), 'summarised' (every line: turns, usage, cost, search), 'analysed' (reclaimable
   * by class is up to date with the summary).
   */
  stage: 'unreadable' | 'listed' | 'summarised' | 'analysed';
  turns: number;
  records: number;
  /** Reported: input + cache creation + cache read of the last main-thread API response. */
  contextTokens: number | null;
  lastModel: string | null;
  usage: { apiMessages: number; input: number; output: number; cacheCreation: number; cacheRead: number };
  /** USD for this file's messages; null while not summarised or when a model has no price. */
  costUsd: number | null;
  unpricedMessages: number;
  problems: number;
  problemNote: string | null;
  /** From the last full analysis (possibly of fewer bytes than now: see stage). */
  estimatedTokens: number | null;
  /** What the default fork removes net of its tombstones (core's windowFigures). */
  reclaimableTokens: number | null;
  /** The window reclaimableTokens is a share of: the analysis's reported total, else its estimate. */
  windowTokens: number | null;
  reclaimableByClass: Record<string, number> | null;
  /** The folder the analysis checked the disk in (a mapped cwd); null: the recorded cwd itself. */
  analysisRepo: string | null;
  analysisError: string | null;
  /** Sessions: their subagent files, and the cost with them (subagent files merged in, as ccusage does). */
  subagents: number;
  totalCostUsd: number | null;
  /** When the agent's client will delete the file (its modification time + the clean-up period); null: never, or unknown. */
  expiresAt: string | null;
  /** The client's clean-up rule for this file and what decided it; null for agents whose client deletes nothing. */
  retention: RetentionMark | null;
  /** The session's copy in Glassbox's archive; null when it was never kept (or no archive was given). */
  kept: KeptMark | null;
}

/**
 * What a list of thousands of sessions shows of each (the app's session browser): identity, activity,
 * size, the context and reclaimable figures, the stage, the keep marks. Read with a quarter of a full
 * row's columns.
 */
export type BriefRow = Pick<
  SessionRow,
  | 'rowId' | 'agent' | 'path' | 'kind' | 'sessionId' | 'project' | 'cwd' | 'title' | 'firstPrompt' | 'lastActivity' | 'size' | 'mtimeMs'
  | 'stage' | 'contextTokens' | 'estimatedTokens' | 'reclaimableTokens' | 'windowTokens' | 'problemNote' | 'subagents'
  | 'expiresAt' | 'retention' | 'kept' | 'turns' | 'lastModel' | 'totalCostUsd'
> & {
  /** API responses read (a file with neither a prompt nor a response is not a session). */
  apiMessages: number;
};

function stageOf(f: Pick<FileRow, 'level' | 'analyzed_offset' | 'parsed_offset'>): SessionRow['stage'] {
  return f.level === Stage.unreadable
    ? 'unreadable'
    : f.level < Stage.summarised
      ? 'listed'
      : f.analyzed_offset !== null && f.analyzed_offset === f.parsed_offset
        ? 'analysed'
        : 'summarised';
}

export function toBriefRow(f: BriefFileRow, sub?: SubagentCost): BriefRow {
  return {
    rowId: f.id,
    agent: f.agent,
    path: f.path,
    kind: f.kind,
    sessionId: f.session_id,
    project: f.project,
    cwd: f.cwd,
    title: f.title,
    firstPrompt: f.first_prompt,
    lastActivity: f.last_ts ?? new Date(f.mtime_ms).toISOString(),
    size: f.size,
    mtimeMs: f.mtime_ms,
    stage: stageOf(f),
    contextTokens: f.context_tokens,
    estimatedTokens: f.estimated_tokens,
    reclaimableTokens: f.reclaimable_tokens,
    windowTokens: f.window_tokens,
    problemNote: f.problem_note,
    subagents: sub?.count ?? 0,
    turns: f.turns,
    apiMessages: f.api_messages,
    lastModel: f.last_model,
    totalCostUsd: totalCost(f, sub),
    expiresAt: null,
    retention: null,
    kept: null,
  };
}

/** A session's subagents taken together: how many, their cost (null: not all summarised), responses not priced. */
export interface SubagentCost {
  count: number;
  cost: number | null;
  unpriced: number;
}

function ownCost(f: Pick<FileRow, 'level' | 'unpriced_messages' | 'cost_usd'>): number | null {
  return f.level >= Stage.summarised && f.unpriced_messages === 0 ? (f.cost_usd ?? 0) : null;
}

/** The session's cost with its subagents'; null when any part is unknown. */
function totalCost(f: Pick<FileRow, 'level' | 'unpriced_messages' | 'cost_usd'>, sub?: SubagentCost): number | null {
  const own = ownCost(f);
  return own === null || (sub && (sub.unpriced > 0 || sub.cost === null)) ? null : own + (sub?.cost ?? 0);
}

export function toSessionRow(f: FileRow, sub?: SubagentCost): SessionRow {
  const stage = stageOf(f);
  const own = ownCost(f);
  const total = totalCost(f, sub);
  return {
    rowId: f.id,
    agent: f.agent,
    path: f.path,
    root: f.root,
    origin: f.origin,
    kind: f.kind,
    parentPath: f.parent_path,
    agentId: f.agent_id,
    sessionId: f.session_id,
    project: f.project,
    cwd: f.cwd,
    gitBranch: f.git_branch,
    version: f.version,
    title: f.title,
    firstPrompt: f.first_prompt,
    firstActivity: f.first_ts,
    lastActivity: f.last_ts ?? new Date(f.mtime_ms).toISOString(),
    size: f.size,
    mtimeMs: f.mtime_ms,
    stage,
    turns: f.turns,
    records: f.records,
    contextTokens: f.context_tokens,
    lastModel: f.last_model,
    usage: {
      apiMessages: f.api_messages,
      input: f.input_tokens,
      output: f.output_tokens,
      cacheCreation: f.cache_creation_tokens,
      cacheRead: f.cache_read_tokens,
    },
    costUsd: own,
    unpricedMessages: f.unpriced_messages,
    problems: f.problems,
    problemNote: f.problem_note,
    estimatedTokens: f.estimated_tokens,
    reclaimableTokens: f.reclaimable_tokens,
    windowTokens: f.window_tokens,
    analysisRepo: f.analysis_repo,
    reclaimableByClass: f.reclaimable_json ? (JSON.parse(f.reclaimable_json) as Record<string, number>) : null,
    analysisError: f.analysis_error,
    subagents: sub?.count ?? 0,
    totalCostUsd: total,
    expiresAt: null,
    retention: null,
    kept: null,
  };
}
