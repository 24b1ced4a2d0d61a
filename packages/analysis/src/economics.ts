import {
  formatUsd,
  humanTokens,
  type CacheTtl,
  type ClassifiedSnapshot,
  type EvictionPlan,
  type ForkEconomics,
  type RequestCosts,
} from '@glassbox/core';
import { findPrice, type ModelPrice, type PriceTable } from './prices';

/**
 * The prompt-cache model of a fork, from the transcript alone. The next request carries the window
 * the provider reported for the last one. Continuing the original with a warm cache reads all of it
 * from the cache; resuming the fork reads only the prefix before its first change and writes the
 * rest again; with a cold cache both write everything. Every later request reads its window from the
 * cache, and the fork's window is smaller by what it removed. Output tokens and the new prompt cost
 * the same either way and are left out. See docs/economics.md.
 */
export interface CacheModel {
  ttl: CacheTtl | 'unknown';
  at: Date;
  lastResponseAt: Date | null;
  warm: boolean;
  warmUntil: Date | null;
  expiredAt: Date | null;
  windowTokens: number;
  windowReported: boolean;
  /** Estimated tokens before each segment: system prompt, tools and memory first, then the conversation. */
  prefixBefore: ReadonlyMap<string, number>;
  /** Price multipliers relative to the input price: a cache read, a cache write of the session's TTL. */
  read: number;
  write: number;
  price: ModelPrice | null;
  table: PriceTable;
}

export interface EconomicsOptions {
  /** The moment to evaluate at (`--at`). */
  at: Date;
  /** The agent's dated list prices (its adapter ships them). */
  prices: PriceTable;
}

const TTL_MS: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };
/** The provider's multipliers, used when the model has no price (then figures are token equivalents only). */
const STANDARD = { read: 0.1, write5m: 1.25, write1h: 2 };

/** The session's cache lifetime: the latest main-thread response that wrote to the cache says which. */
export function sessionTtl(snapshot: ClassifiedSnapshot): CacheTtl | 'unknown' {
  for (let i = snapshot.turns.length - 1; i >= 0; i--) {
    const u = snapshot.turns[i]?.usage;
    if (!u) continue;
    if (u.cacheCreation1hTokens > 0) return '1h';
    if (u.cacheCreation5mTokens > 0) return '5m';
  }
  return 'unknown';
}

export function cacheModel(snapshot: ClassifiedSnapshot, options: EconomicsOptions): CacheModel {
  const ttl = sessionTtl(snapshot);
  const ttlMs = TTL_MS[ttl === 'unknown' ? '5m' : ttl];
  let last: Date | null = null;
  for (const t of snapshot.turns) {
    const d = t.timestamp ? new Date(t.timestamp) : null;
    if (d && !Number.isNaN(d.getTime()) && (!last || d > last)) last = d;
  }
  const at = options.at;
  const until = last ? new Date(last.getTime() + ttlMs) : null;
  const warm = until !== null && at.getTime() < until.getTime() && at.getTime() >= (last as Date).getTime();
  const table = options.prices;
  const price = snapshot.context.lastModel ? findPrice(snapshot.context.lastModel, table) : null;
  const read = price && price.input > 0 ? price.cacheRead / price.input : STANDARD.read;
  const write = price && price.input > 0 ? (ttl === '1h' ? price.cacheWrite1h : price.cacheWrite5m) / price.input : ttl === '1h' ? STANDARD.write1h : STANDARD.write5m;
  const prefixBefore = new Map<string, number>();
  let running = snapshot.context.unattributedTokens;
  for (const s of snapshot.segments) {
    prefixBefore.set(s.id, running);
    running += s.tokens;
  }
  const c = snapshot.context;
  return {
    ttl,
    at,
    lastResponseAt: last,
    warm,
    warmUntil: warm ? until : null,
    expiredAt: !warm && until && at.getTime() >= until.getTime() ? until : null,
    windowTokens: c.reportedTokens ?? c.estimatedTokens,
    windowReported: c.reportedTokens !== null,
    prefixBefore,
    read,
    write,
    price,
    table,
  };
}

/** An eviction as the cost model sees it: where it is, and what it saves on every request. */
export interface CostedEviction {
  segmentId: string;
  /** Tokens freed minus the tombstone's tokens. */
  net: number;
}

interface Costs {
  originalNext: number;
  originalPer: number;
  forkNext: number;
  forkPer: number;
  prefix: number;
  saved: number;
}

/** Token-equivalent costs of continuing the original and of resuming a fork with these evictions. */
function costsOf(model: CacheModel, evictions: readonly CostedEviction[]): Costs {
  const w = model.windowTokens;
  const saved = Math.max(0, Math.min(w, evictions.reduce((n, e) => n + e.net, 0)));
  let prefix = w;
  for (const e of evictions) prefix = Math.min(prefix, model.prefixBefore.get(e.segmentId) ?? w);
  if (evictions.length === 0) prefix = w;
  const forkWindow = w - saved;
  prefix = Math.min(prefix, forkWindow);
  const originalNext = model.warm ? w * model.read : w * model.write;
  const forkNext = model.warm ? prefix * model.read + (forkWindow - prefix) * model.write : forkWindow * model.write;
  return { originalNext, originalPer: w * model.read, forkNext, forkPer: forkWindow * model.read, prefix, saved };
}

/** Total token-equivalent cost of the next `requests` requests. */
function totalOver(next: number, per: number, requests: number): number {
  return requests <= 0 ? 0 : next + (requests - 1) * per;
}

/**
 * `--horizon N`: among the candidate evictions, the subset with the lowest total cost over the next N
 * requests (none at all, when continuing the original is cheapest). A fork's cost depends on its
 * earliest change (where the cache breaks) and on everything it saves, so the best subset is "every
 * candidate from some position on": evictions late in the window break less of the cache.
 */
export function chooseForHorizon(model: CacheModel, candidates: readonly CostedEviction[], requests: number): CostedEviction[] {
  const ordered = [...candidates].sort((a, b) => (model.prefixBefore.get(a.segmentId) ?? 0) - (model.prefixBefore.get(b.segmentId) ?? 0));
  const none = costsOf(model, []);
  let best: CostedEviction[] = [];
  let bestCost = totalOver(none.originalNext, none.originalPer, requests);
  for (let k = 0; k < ordered.length; k++) {
    const subset = ordered.slice(k).filter((e) => e.net > 0);
    if (subset.length === 0) continue;
    const c = costsOf(model, subset);
    const total = totalOver(c.forkNext, c.forkPer, requests);
    if (total < bestCost - 1e-9) {
      best = subset;
      bestCost = total;
    }
  }
  return best;
}

/** What forking with this plan costs now, and after how many requests it pays back. */
export function economicsOf(model: CacheModel, plan: EvictionPlan): ForkEconomics {
  const evictions = plan.actions.map((a) => ({ segmentId: a.segmentId, net: a.tokensFreed - a.tombstoneTokens }));
  const c = costsOf(model, evictions);
  const usd = (tokens: number): number | null => (model.price ? (tokens * model.price.input) / 1_000_000 : null);
  const side = (next: number, per: number): RequestCosts => ({ nextRequestUsd: usd(next), perRequestUsd: usd(per), nextRequestTokens: Math.round(next), perRequestTokens: Math.round(per) });
  const empty = plan.actions.length === 0;
  let breakEven: number | null;
  if (empty) breakEven = null;
  else if (c.forkNext <= c.originalNext) breakEven = 1;
  else if (c.forkPer < c.originalPer) breakEven = 1 + Math.ceil((c.forkNext - c.originalNext) / (c.originalPer - c.forkPer) - 1e-9);
  else breakEven = null;
  return {
    ttl: model.ttl,
    lastResponseAt: model.lastResponseAt?.toISOString() ?? null,
    at: model.at.toISOString(),
    cacheWarmUntil: model.warmUntil?.toISOString() ?? null,
    cacheExpiredAt: model.expiredAt?.toISOString() ?? null,
    windowTokens: model.windowTokens,
    windowReported: model.windowReported,
    prefixTokens: Math.round(c.prefix),
    savedTokensPerRequest: Math.round(c.saved),
    original: side(c.originalNext, c.originalPer),
    fork: side(c.forkNext, c.forkPer),
    breakEvenRequests: breakEven,
    advice: advice(model, c, breakEven, empty, usd),
    model: modelText(model),
    price: {
      label: model.price?.label ?? null,
      asOf: model.table.asOf,
      inputUsdPerMTok: model.price?.input ?? null,
      readMultiplier: model.read,
      writeMultiplier: model.write,
    },
    empty,
  };
}

/** Total cost in token equivalents of `requests` requests continuing the original or resuming the fork. */
export function totalCost(e: ForkEconomics, side: 'original' | 'fork', requests: number): number {
  return totalOver(e[side].nextRequestTokens, e[side].perRequestTokens, requests);
}

function advice(model: CacheModel, c: Costs, breakEven: number | null, empty: boolean, usd: (t: number) => number | null): string {
  if (empty) return 'nothing to fork: the plan removes nothing';
  const money = (tokens: number): string => {
    const v = usd(tokens);
    return v === null ? `${humanTokens(Math.round(tokens))} input-token equivalents` : formatUsd(v);
  };
  const saving = `saves ${money(c.originalPer - c.forkPer)} per request`;
  const unknown = model.ttl === 'unknown' ? ' (the transcript does not say which cache lifetime it used: assumed 5 minutes)' : '';
  if (!model.warm) {
    const when = model.expiredAt
      ? `the cache expired ${duration(model.at.getTime() - model.expiredAt.getTime())} ago`
      : model.lastResponseAt
        ? `${model.at.toISOString()} is before the last response (${model.lastResponseAt.toISOString()}), so the cache is taken as expired`
        : 'the time of the last response is unknown, so the cache is taken as expired';
    return `${when}: forking now is cheaper from the first request (${saving})${unknown}`;
  }
  const until = `cache warm until ${hhmm(model.warmUntil as Date)}`;
  if (breakEven === 1) return `${until}, but forking now is cheaper from the first request (${saving})${unknown}`;
  const extra = `forking now costs ${money(c.forkNext - c.originalNext)} more on the next request`;
  const payback = breakEven === null ? 'and never pays back' : `and pays back after ${breakEven} requests (${saving})`;
  return `${until} — fork after that and it costs nothing extra; ${extra} ${payback}${unknown}`;
}

function modelText(model: CacheModel): string[] {
  const p = model.price;
  const ttlName = (t: CacheTtl): string => (t === '1h' ? '1-hour' : '5-minute');
  const out = [
    p
      ? `prices: ${p.label} list prices as of ${model.table.asOf}: input $${p.input}/MTok; cache read ×${round(model.read)}, ${ttlName(model.ttl === '1h' ? '1h' : '5m')} cache write ×${round(model.write)}`
      : `prices: no list price for this model: figures are input-token equivalents (cache read ×${model.read}, write ×${model.write})`,
    model.ttl === 'unknown'
      ? 'cache: the usage does not say which lifetime the session used; assumed 5 minutes (writes ×1.25; the 1-hour cache writes at ×2)'
      : `cache: the session wrote to the ${ttlName(model.ttl)} cache (from its usage); a warm cache reads the unchanged prefix, the fork writes everything after its first change again`,
    `reported: the window of the last request, ${humanTokens(model.windowTokens)} tokens${model.windowReported ? ' (provider-reported)' : ' (estimated: no usage reported)'}; estimated: the prefix before the first change and the tokens saved per request`,
    'left out: output tokens and the new prompt, which cost the same either way',
  ];
  return out;
}

function round(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function hhmm(d: Date): string {
  return `${d.toISOString().slice(11, 16)} UTC`;
}

function duration(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 1) return 'less than a minute';
  if (min < 90) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}
