import type { ClientCost, ClientModelCost } from '@glassbox/core';
import { isObject, num, type JsonObject } from '../record-types';

/**
 * Claude Code's own running cost (2.1.33x `cost-state` records: `totalCostUSD` and `modelUsage` per
 * model, written as each run ends and restored by the next run of the same session). The last valid
 * record of the session is its figure. It covers the runs since the first one that wrote a record:
 * runs of an older client before it (another `version` on the replies) have no record to restore.
 */
export interface ClientCostTrack {
  last: ClientCost | null;
  /** The first line of the current run of replies written by one client version. */
  runStart: number;
  runVersion: string | null;
  /** Fixed at the first record: where the figure starts. */
  fromLine: number | null;
}

export function newClientCostTrack(): ClientCostTrack {
  return { last: null, runStart: 0, runVersion: null, fromLine: null };
}

/** A main-thread reply: a change of client version starts a new run. */
export function noteReplyVersion(track: ClientCostTrack, version: string | null, line: number): void {
  if (version === null || version === track.runVersion) return;
  track.runVersion = version;
  track.runStart = line;
}

/** A `cost-state` record of the session; ignored when it is not one the client itself would accept. */
export function noteCostState(track: ClientCostTrack, r: JsonObject, line: number): void {
  const total = num(r['totalCostUSD']);
  const usage = r['modelUsage'];
  if (total === undefined || !Number.isFinite(total) || total < 0 || !isObject(usage)) return;
  const byModel: ClientModelCost[] = [];
  for (const [model, u] of Object.entries(usage)) {
    if (!isObject(u)) return;
    byModel.push({
      model,
      usd: num(u['costUSD']) ?? 0,
      inputTokens: num(u['inputTokens']) ?? 0,
      outputTokens: num(u['outputTokens']) ?? 0,
      cacheReadTokens: num(u['cacheReadInputTokens']) ?? 0,
      cacheWriteTokens: num(u['cacheCreationInputTokens']) ?? 0,
    });
  }
  track.fromLine ??= track.runStart;
  track.last = { totalUsd: total, byModel, line, fromLine: track.fromLine, guessed: r['hasUnknownModelCost'] === true };
}
