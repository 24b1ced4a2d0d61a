import { createHash } from 'node:crypto';
import { estimateTokensFromBytes, type DeadProof, type PlannedAction, type Segment } from '@glassbox/core';
import {
  analyzeSession,
  cacheModel,
  chooseForHorizon,
  folderFor,
  planEviction,
  type AnalysisPorts,
  type CacheModel,
  type PriceTable,
} from '@glassbox/analysis';
import {
  ANTHROPIC_BYTES_PER_TOKEN,
  locate,
  messageSignature,
  requestEnvironment,
  requestSession,
  segmentPlace,
  type KnownReply,
  type ReadRequest,
  type RequestMessage,
  type Replacement,
} from '@glassbox/request-anthropic';
import { decidedKey, TTL_MS, type ConversationState, type SeenReply } from './state';
import type { RemovalMoment, RemovalRecord } from './records';
import { requestTombstone } from './wording';

/** How the proxy chooses, fixed for its run (the CLI's flags). */
export interface DecideSettings {
  ports: AnalysisPorts;
  /** Recorded working directories mapped to folders here (`--repo CWD=DIR`). */
  mappings: Readonly<Record<string, string>>;
  prices: PriceTable;
  /** The last N exchanges are never touched. */
  protectTail: number;
  /** A warm cache is broken only when the saving over this many requests pays for the rewrite. */
  horizon: number;
  /** New removals smaller than this, together, are not worth changing a request for. */
  minimumSavings: number;
  /** Apply every proven removal at once, whatever the cache (`--evict-now`). */
  evictNow: boolean;
  /** The cache lifetime to assume instead of what the usage shows (tests; providers with another lifetime). */
  cacheTtlMs: number | null;
}

/** A removal decided at this request: its record is written, and its payload archived, before the request is sent. */
export interface NewRemoval {
  record: RemovalRecord;
  payload: Buffer;
}

export interface Decision {
  replacements: Replacement[];
  added: NewRemoval[];
  moment: RemovalMoment | null;
  cacheBreak: boolean;
  /** Net tokens the request carries less than the client's. */
  savedTokens: number;
  /** The cache had expired before this request. */
  expired: boolean;
  /** Decided tombstones this request could not carry, and why (the payload changed, it is no longer there). */
  skipped: string[];
}

interface Place {
  message: number;
  block: number;
}

/** Where each tool call's tool_use and tool_result sit in this request. */
function toolPlaces(request: ReadRequest): Map<string, { use?: Place; result?: Place }> {
  const out = new Map<string, { use?: Place; result?: Place }>();
  for (const m of request.messages) {
    for (const b of m.blocks) {
      const id = b.type === 'tool_use' ? b.value['id'] : b.type === 'tool_result' ? b.value['tool_use_id'] : undefined;
      if (typeof id !== 'string') continue;
      const entry = out.get(id) ?? {};
      if (b.type === 'tool_use') entry.use = { message: m.index, block: b.index };
      else entry.result = { message: m.index, block: b.index };
      out.set(id, entry);
    }
  }
  return out;
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

function ttlMsOf(state: ConversationState, settings: DecideSettings): number {
  return settings.cacheTtlMs ?? TTL_MS[state.ttl === 'unknown' ? '5m' : state.ttl];
}

/**
 * What this request carries in place of the client's payloads: every tombstone decided earlier (when
 * its payload is still the one removed), and new ones only at a moment that pays — the first request
 * after the cache expired (rewriting costs nothing then), or once per idle gap when the saving over
 * the horizon exceeds the rewrite, or always with `--evict-now`. The analysis is the one `inspect`
 * runs, on the request as the neutral model.
 */
export function decide(request: ReadRequest, state: ConversationState, settings: DecideSettings, now: number): Decision {
  const places = toolPlaces(request);
  const replacements: Replacement[] = [];
  const skipped: string[] = [];
  let savedTokens = 0;
  for (const r of state.decided.values()) {
    const at = r.target === 'tool-result' ? places.get(r.toolUseId)?.result : places.get(r.toolUseId)?.use;
    if (!at) continue;
    const replacement: Replacement = { message: at.message, block: at.block, target: r.target, tombstone: r.tombstone };
    const where = locate(request, replacement);
    if (typeof where === 'string' || sha256(request.bytes.subarray(where.span.start, where.span.end)) !== r.sha256) {
      skipped.push(`${r.toolUseId}: the client sent another payload than the one removed, so it goes through as sent`);
      continue;
    }
    replacements.push(replacement);
    savedTokens += r.tokensFreed - r.tombstoneTokens;
  }

  const expired = state.lastActivityAt !== null && now - state.lastActivityAt > ttlMsOf(state, settings);
  const none = { replacements, added: [], moment: null, cacheBreak: false, savedTokens, expired, skipped };
  if (!settings.evictNow && !expired) {
    // A warm break was spent in this gap: nothing new until the cache expires, so no analysis either.
    if (state.warmBreakInGap) return none;
    // Without the provider's figure for the window a warm break is never priced, so never taken.
    const replies = knownReplies(request, state);
    if (![...replies.keys()].some((i) => i === lastAssistantIndex(request))) return none;
    if (!warmLookDue(state, request.bytes.length)) return none;
    state.lastWarmLook = { request: state.requests, bytes: request.bytes.length };
  }

  const environment = requestEnvironment(request);
  const built = requestSession(request, { conversationId: state.id, environment, replies: knownReplies(request, state) });
  if (!built.ok) throw new RequestNotModelled(built.reason);
  const mapped = folderFor(environment.cwd, settings.mappings);
  const repoRoot = mapped !== environment.cwd ? mapped : null;
  const snapshot = analyzeSession(built.session, settings.ports, { repoRoot, protectTail: settings.protectTail });
  const plan = planEviction(snapshot, { minimumSavings: 0 });
  const segments = new Map(snapshot.segments.map((s) => [s.id, s]));

  const candidates: { action: PlannedAction; seg: Segment; replacement: Replacement; payload: Buffer; net: number; tombstoneTokens: number }[] = [];
  for (const action of plan.actions) {
    const seg = segments.get(action.segmentId);
    const place = segmentPlace(action.segmentId);
    if (!seg || !place || !action.toolUseId || state.decided.has(decidedKey(action.toolUseId, action.target))) continue;
    if (action.target === 'tool-input' && hasReasoning(request, place.message)) continue;
    const probe: Replacement = { message: place.message, block: place.block, target: action.target, tombstone: '' };
    const where = locate(request, probe);
    if (typeof where === 'string') continue;
    const payload = Buffer.from(request.bytes.subarray(where.span.start, where.span.end));
    const tombstone = requestTombstone(seg, action.proof, sha256(payload));
    const tombstoneTokens = estimateTokensFromBytes(Buffer.byteLength(JSON.stringify(tombstone)), ANTHROPIC_BYTES_PER_TOKEN);
    const net = action.tokensFreed - tombstoneTokens;
    if (net <= 0 || Buffer.byteLength(JSON.stringify(tombstone)) >= payload.length) continue;
    candidates.push({ action, seg, replacement: { ...probe, tombstone }, payload, net, tombstoneTokens });
  }
  if (candidates.length === 0) return none;

  let moment: RemovalMoment;
  let chosen = candidates;
  if (settings.evictNow) moment = 'evict-now';
  else if (expired) moment = 'cache-expired';
  else {
    // A warm break needs the provider's figure for the window; without it, keep.
    if (snapshot.context.reportedTokens === null) return none;
    const model = warmRewriteModel(cacheModel(snapshot, { at: new Date(now), prices: settings.prices }), snapshot.context.unattributedTokens, candidates.map((c) => c.action.segmentId));
    const picked = new Set(chooseForHorizon(model, candidates.map((c) => ({ segmentId: c.action.segmentId, net: c.net })), settings.horizon).map((e) => e.segmentId));
    chosen = candidates.filter((c) => picked.has(c.action.segmentId));
    moment = 'horizon';
  }
  const total = chosen.reduce((n, c) => n + c.net, 0);
  if (chosen.length === 0 || total < settings.minimumSavings) return none;

  const at = new Date(now).toISOString();
  const added: NewRemoval[] = chosen.map((c) => {
    const record: RemovalRecord = {
      toolUseId: c.action.toolUseId as string,
      target: c.action.target,
      sha256: sha256(c.payload),
      bytes: c.payload.length,
      tombstone: c.replacement.tombstone,
      class: c.action.class,
      proof: c.action.proof as DeadProof,
      source: c.seg.source.label,
      tokensFreed: c.action.tokensFreed,
      tombstoneTokens: c.tombstoneTokens,
      request: state.requests,
      at,
      moment,
    };
    if (c.action.target === 'tool-input') {
      const where = locate(request, c.replacement);
      if (typeof where !== 'string' && where.field) record.field = where.field;
    }
    return { record, payload: c.payload };
  });
  for (const c of chosen) {
    replacements.push(c.replacement);
    savedTokens += c.net;
  }
  return { replacements, added, moment, cacheBreak: moment !== 'cache-expired', savedTokens, expired, skipped };
}

/** Thrown when a request cannot be read as a conversation (the proxy then fails open). */
class RequestNotModelled extends Error {}

/** Look at a warm cache again once the request grew by a tenth, or eight requests on. */
function warmLookDue(state: ConversationState, bytes: number): boolean {
  const last = state.lastWarmLook;
  return last === null || bytes >= last.bytes * 1.1 || state.requests - last.request >= 8;
}

function lastAssistantIndex(request: ReadRequest): number {
  for (let i = request.messages.length - 1; i >= 0; i--) if (request.messages[i]?.role === 'assistant') return i;
  return -1;
}

/** The replies this proxy saw, by the assistant message of this request that repeats each (first and last). */
function knownReplies(request: ReadRequest, state: ConversationState): Map<number, KnownReply> {
  const out = new Map<number, KnownReply>();
  const assistants = request.messages.filter((m) => m.role === 'assistant');
  const attach = (seen: SeenReply | null, message: RequestMessage | undefined): void => {
    if (!seen?.facts.usage || !message) return;
    const sig = messageSignature(message);
    if (sig.length === 0 || sig.join('\n') !== seen.facts.signature.join('\n')) return;
    out.set(message.index, { usage: seen.facts.usage, at: new Date(seen.at), model: seen.facts.model });
  };
  attach(state.firstResponse, assistants[0]);
  attach(state.lastResponse, assistants[assistants.length - 1]);
  return out;
}

/**
 * The warm cache as a rewrite meets it. The provider finds a cached prefix only where an earlier
 * request put a cache marker, and the client puts them on the system prompt and the last message, so
 * a change inside the conversation is priced as rewriting everything after the system prompt and
 * tools (docs/proxy.md). Pessimistic on purpose: a break it chooses pays at least that well.
 */
function warmRewriteModel(model: CacheModel, fixedTokens: number, segmentIds: readonly string[]): CacheModel {
  return { ...model, warm: true, prefixBefore: new Map(segmentIds.map((id) => [id, fixedTokens])) };
}

/** Reasoning blocks are signed by the provider; an assistant message that holds one is not rewritten. */
function hasReasoning(request: ReadRequest, message: number): boolean {
  return request.messages[message]?.blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking') ?? false;
}
