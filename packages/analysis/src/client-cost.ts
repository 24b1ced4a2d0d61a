import { findPrice, usageCost, type PriceTable, type Session } from '@glassbox/core';
import type { Response } from './usage';

/** Past this share of the client's own figure, the two figures are said to differ. */
export const CLIENT_COST_TOLERANCE = 0.01;

/**
 * The agent's client's own figure for the session (when it records one) beside Glassbox's for the
 * same responses: the responses of the runs the client's figure covers, up to the record it comes
 * from. Independent counts of one bill: a difference says that one side prices or counts something
 * the other does not (a model without a price, requests the transcript does not log).
 */
export interface ClientCostComparison {
  clientUsd: number;
  /** Glassbox's price of the same responses; null when one of their models has no price. */
  glassboxUsd: number | null;
  /** More than 1 % apart, or not comparable (no price on Glassbox's side). */
  differs: boolean;
  /** The client priced a model it had no price for: its figure holds a guess. */
  clientGuessed: boolean;
  /** The record the client's figure comes from, and the first line of the responses it covers. */
  line: number;
  fromLine: number;
  /** Responses Glassbox priced for the comparison. */
  responses: number;
  /**
   * Per model, with the tokens each side counts (input, cache writes and reads, output): when the
   * client counts more, it paid for requests no record logs (its compaction and title requests).
   */
  byModel: { model: string; clientUsd: number; glassboxUsd: number | null; differs: boolean; clientTokens: number; glassboxTokens: number }[];
}

const bare = (model: string): string => model.replace(/\[[0-9a-z]+\]$/i, '');

export function compareClientCost(session: Session, main: readonly Response[], subagents: readonly Response[], table: PriceTable): ClientCostComparison | null {
  const c = session.clientCost;
  if (!c) return null;
  const mainCovered = main.filter((r) => !r.isSidechain && r.line >= c.fromLine && r.line <= c.line);
  // Subagents run inside the client's runs; when the figure leaves earlier runs out, their timing decides.
  const from = main.find((r) => r.line === c.fromLine)?.timestamp;
  const sideCovered = [...subagents, ...main.filter((r) => r.isSidechain)].filter((r) => c.fromLine <= firstLine(main) || (from !== undefined && r.timestamp !== undefined && r.timestamp >= from));
  const covered = [...mainCovered, ...sideCovered].filter((r) => !r.synthetic);
  const perModel = new Map<string, number | null>();
  const tokens = new Map<string, number>();
  let total: number | null = 0;
  for (const r of covered) {
    const u = r.usage;
    tokens.set(bare(r.model), (tokens.get(bare(r.model)) ?? 0) + u.inputTokens + u.cacheCreationTokens + u.cacheReadTokens + u.outputTokens);
    const p = findPrice(r.model, table);
    const usd = p ? usageCost(r.usage, p) : null;
    const m = bare(r.model);
    const prev = perModel.has(m) ? (perModel.get(m) as number | null) : 0;
    perModel.set(m, prev === null || usd === null ? null : prev + usd);
    total = total === null || usd === null ? null : total + usd;
  }
  const differs = (client: number, mine: number | null): boolean => mine === null || Math.abs(mine - client) > CLIENT_COST_TOLERANCE * Math.max(client, 1e-9);
  const models = new Set([...c.byModel.map((m) => bare(m.model)), ...perModel.keys()]);
  const byModel = [...models].map((model) => {
    const theirs = c.byModel.filter((m) => bare(m.model) === model);
    const clientUsd = theirs.reduce((n, m) => n + m.usd, 0);
    const clientTokens = theirs.reduce((n, m) => n + m.inputTokens + m.cacheWriteTokens + m.cacheReadTokens + m.outputTokens, 0);
    const glassboxUsd = perModel.has(model) ? (perModel.get(model) as number | null) : 0;
    return { model, clientUsd, glassboxUsd, differs: differs(clientUsd, glassboxUsd), clientTokens, glassboxTokens: tokens.get(model) ?? 0 };
  });
  return {
    clientUsd: c.totalUsd,
    glassboxUsd: total,
    differs: differs(c.totalUsd, total),
    clientGuessed: c.guessed,
    line: c.line,
    fromLine: c.fromLine,
    responses: covered.length,
    byModel,
  };
}

function firstLine(main: readonly Response[]): number {
  let min = Infinity;
  for (const r of main) if (!r.isSidechain && !r.synthetic && r.line < min) min = r.line;
  return min;
}
