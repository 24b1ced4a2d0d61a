import { ZERO_USAGE, findPrice, usageCost, type ChainNode, type PriceTable, type Session, type Usage } from '@glassbox/core';
import { responseKey, responsesOf, type Response } from './usage';
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
  const seen = new Set<string>();
  let duplicateResponses = 0;
  const main = responsesOf(session);
  const subs = subagents.flatMap((s) => responsesOf(s));
  const take = (r: Response): boolean => {
    const key = responseKey(r);
    if (seen.has(key)) {
      duplicateResponses++;
      return false;
    }
    seen.add(key);
    return true;
  };
  const mainKept = main.filter(take);
  const subKept = subs.filter(take);
  const unknown = new Set<string>();

  const lineOf = (rs: Response[]): CostLine => {
    const usage = { ...ZERO_USAGE };
    let cost: number | null = 0;
    for (const r of rs) {
      addUsage(usage, r.usage);
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
  const { perTurn, beforeFirst } = byTurn(prompts, mainThread, turnInWindow(session));
  for (let i = 0; i < prompts.length; i++) {
    turns.push({ turn: i + 1, prompt: prompts[i]?.promptText ?? '', line: prompts[i]?.line ?? 0, ...lineOf(perTurn[i] ?? []) });
  }
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

/**
 * The main thread's responses of each turn (after its prompt's line, before the next prompt's), in
 * the order given, and those before the first prompt. One pass with a binary search over the prompts'
 * lines, which the parser gives in file order: a long session has thousands of prompts and replies,
 * and a filter per prompt cost their product on every append of a live session.
 */
function byTurn(prompts: readonly ChainNode[], all: readonly Response[], inWindow: ReadonlyMap<string, number>): { perTurn: Response[][]; beforeFirst: Response[] } {
  const lines = prompts.map((p) => p.line);
  const perTurn: Response[][] = prompts.map(() => []);
  const beforeFirst: Response[] = [];
  // A reply on a prompt's own line (a record holding a whole history: Gemini CLI's full replace)
  // has no place among the lines: it is put in the turn the window shows it in.
  const promptLines = new Set(lines);
  const responses: Response[] = [];
  for (const r of all) {
    const turn = promptLines.has(r.line) ? inWindow.get(responseKey(r)) : undefined;
    if (turn === undefined) responses.push(r);
    else if (turn < 0) beforeFirst.push(r);
    else perTurn[turn]?.push(r);
  }
  for (let i = 1; i < lines.length; i++) {
    if ((lines[i] as number) <= (lines[i - 1] as number)) {
      const each = byTurnEach(lines, responses);
      each.perTurn.forEach((rs, t) => perTurn[t]?.push(...rs));
      return { perTurn, beforeFirst: [...beforeFirst, ...each.beforeFirst] };
    }
  }
  for (const r of responses) {
    // The last prompt whose line is before the response's.
    let lo = 0;
    let hi = lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((lines[mid] as number) < r.line) lo = mid + 1;
      else hi = mid;
    }
    // A response on a prompt's own line belongs to no turn.
    if (lines[lo] === r.line) continue;
    if (lo === 0) beforeFirst.push(r);
    else perTurn[lo - 1]?.push(r);
  }
  return { perTurn, beforeFirst };
}

/**
 * The turn each main-thread reply of the window is in, by its place in the window (-1: before the
 * first prompt), keyed like a response.
 */
function turnInWindow(session: Session): Map<string, number> {
  const out = new Map<string, number>();
  let turn = -1;
  for (const u of session.order) {
    const n = session.nodes.get(u);
    if (!n || n.isSidechain) continue;
    if (n.kind === 'prompt') turn++;
    else if (n.kind === 'assistant' && n.usage) out.set(responseKey({ messageId: n.messageId ?? n.uuid, requestId: n.requestId }), turn);
  }
  return out;
}

/** The same, prompt by prompt, for prompts out of file order (never seen from the parsers; kept exact). */
function byTurnEach(lines: readonly number[], responses: readonly Response[]): { perTurn: Response[][]; beforeFirst: Response[] } {
  const perTurn = lines.map((start, i) => responses.filter((r) => r.line > start && r.line < (lines[i + 1] ?? Infinity)));
  return { perTurn, beforeFirst: responses.filter((r) => r.line < (lines[0] ?? Infinity)) };
}

function priceOf(r: Response, table: PriceTable, unknown: Set<string>): number | null {
  const p = findPrice(r.model, table);
  if (!p) {
    unknown.add(r.model);
    return null;
  }
  return usageCost(r.usage, p);
}

/** Adds `b` into `sum` (a line's own total: one object per line, not one per reply). */
function addUsage(sum: Usage, b: Usage): void {
  sum.inputTokens += b.inputTokens;
  sum.outputTokens += b.outputTokens;
  sum.cacheCreationTokens += b.cacheCreationTokens;
  sum.cacheReadTokens += b.cacheReadTokens;
  sum.cacheCreation5mTokens += b.cacheCreation5mTokens;
  sum.cacheCreation1hTokens += b.cacheCreation1hTokens;
}
