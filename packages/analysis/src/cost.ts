import { ZERO_USAGE, findPrice, usageCost, type ChainNode, type PriceTable, type Session, type Usage } from '@glassbox/core';
import { responsesOf, type Response } from './usage';
import { compareClientCost, type ClientCostComparison } from './client-cost';

export interface CostLine {
  usage: Usage;
  responses: number;
  /** USD; null when some response's model has no price. */
  cost: number | null;
}

export interface CostReport {
  sessionId: string;
  priceTable: { asOf: string; source: string };
  total: CostLine;
  byModel: (CostLine & { model: string; priceLabel: string | null })[];
  /** Main-thread cost per user turn. */
  turns: (CostLine & { turn: number; prompt: string; line: number })[];
  subagents: CostLine;
  unknownModels: string[];
  /** Responses seen in more than one file (subagent replays), counted once. */
  duplicateResponses: number;
  /** The client's own figure beside Glassbox's, when the transcript records one. */
  client: ClientCostComparison | null;
}

/**
 * Provider-reported usage, one figure per API response across the session and its subagent files
 * (message id + request id, keeping the final usage of a streamed reply), priced per model with the
 * agent's price table (its adapter's, or the user's override merged over it).
 */
export function computeCost(session: Session, subagents: Session[], table: PriceTable): CostReport {
  const seen = new Map<string, Response>();
  let duplicateResponses = 0;
  const main = responsesOf(session);
  const subs = subagents.flatMap((s) => responsesOf(s));
  const take = (r: Response): boolean => {
    const prev = seen.get(r.key);
    if (prev) {
      duplicateResponses++;
      return false;
    }
    seen.set(r.key, r);
    return true;
  };
  const mainKept = main.filter(take);
  const subKept = subs.filter(take);
  const unknown = new Set<string>();

  const lineOf = (rs: Response[]): CostLine => {
    let usage = { ...ZERO_USAGE };
    let cost: number | null = 0;
    for (const r of rs) {
      usage = addUsage(usage, r.usage);
      const c = priceOf(r, table, unknown);
      cost = cost === null || c === null ? null : cost + c;
    }
    return { usage, responses: rs.length, cost };
  };

  const byModelMap = new Map<string, Response[]>();
  for (const r of [...mainKept, ...subKept]) {
    // A placeholder the client wrote itself (no model ran) is no model: no "<synthetic> $0.00" row.
    if (r.synthetic) continue;
    const list = byModelMap.get(r.model);
    if (list) list.push(r);
    else byModelMap.set(r.model, [r]);
  }
  const byModel = [...byModelMap.entries()].map(([model, rs]) => ({
    model,
    priceLabel: findPrice(model, table)?.label ?? null,
    ...lineOf(rs),
  }));

  const prompts: ChainNode[] = session.order
    .map((u) => session.nodes.get(u))
    .filter((n): n is ChainNode => !!n && n.kind === 'prompt' && !n.isSidechain);
  const turns: CostReport['turns'] = [];
  const mainThread = mainKept.filter((r) => !r.isSidechain);
  for (let i = 0; i < prompts.length; i++) {
    const start = prompts[i]?.line ?? 0;
    const end = prompts[i + 1]?.line ?? Infinity;
    const rs = mainThread.filter((r) => r.line > start && r.line < end);
    turns.push({ turn: i + 1, prompt: prompts[i]?.promptText ?? '', line: start, ...lineOf(rs) });
  }
  const beforeFirst = mainThread.filter((r) => r.line < (prompts[0]?.line ?? Infinity));
  if (beforeFirst.length > 0) turns.unshift({ turn: 0, prompt: '(before the first prompt)', line: 0, ...lineOf(beforeFirst) });

  return {
    sessionId: session.id,
    priceTable: { asOf: table.asOf, source: table.source },
    total: lineOf([...mainKept, ...subKept]),
    byModel,
    turns,
    subagents: lineOf([...subKept, ...mainKept.filter((r) => r.isSidechain)]),
    unknownModels: [...unknown],
    duplicateResponses,
    client: compareClientCost(session, mainKept, subKept, table),
  };
}

function priceOf(r: Response, table: PriceTable, unknown: Set<string>): number | null {
  const p = findPrice(r.model, table);
  if (!p) {
    unknown.add(r.model);
    return null;
  }
  return usageCost(r.usage, p);
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheCreation5mTokens: a.cacheCreation5mTokens + b.cacheCreation5mTokens,
    cacheCreation1hTokens: a.cacheCreation1hTokens + b.cacheCreation1hTokens,
  };
}
