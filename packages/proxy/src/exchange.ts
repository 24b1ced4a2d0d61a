import type { IncomingMessage } from 'node:http';
import { humanTokens, isObject } from '@glassbox/core';
import { cacheMarkerTtl, checkRewrite, rewriteRequest, type ReadRequest, type ResponseFacts } from '@glassbox/request-anthropic';
import { decide, type Decision } from './decide';
import type { Conversations } from './conversations';
import type { RequestEvent } from './records';
import { decidedKey, ttlFrom, type ConversationState } from './state';
import { readAll } from './upstream';

/** The reply to one sent request: passed on to the client, or looked at first. */
export type OnReply = (up: IncomingMessage, pass: (done: (facts: ResponseFacts | null, ok: boolean) => void) => void) => void;

/** One `POST /v1/messages` of a known conversation, and how to send bytes for it. */
export interface Exchange {
  request: ReadRequest;
  state: ConversationState;
  now: number;
  /** Sends bytes upstream as this request; `failed` when no reply came at all. */
  send(bytes: Buffer, onReply: OnReply, failed: () => void): void;
}

export interface Totals {
  rewritten: number;
  removals: number;
  savedTokens: number;
  cacheBreaks: number;
  failOpens: number;
}

/**
 * Decides, rewrites, checks and sends one request, failing open at every step: a request that cannot
 * be modelled, a rewrite that does not check out, an archive that cannot be written, or an upstream
 * that refuses the rewritten bytes — the client's own bytes go (once) and the conversation's rewrites
 * are suspended with the reason. The record of the request is written when its reply has ended.
 */
export function handleRewritable(ex: Exchange, conversations: Conversations, totals: Totals, clock: () => number): void {
  const { request, state } = ex;
  state.requests++;
  const event: RequestEvent = { request: state.requests, at: new Date(ex.now).toISOString(), model: request.model, tombstones: 0, added: 0, savedTokens: 0, cacheBreak: false };
  if (state.ttl === 'unknown') state.ttl = cacheMarkerTtl(request) ?? 'unknown';
  const original = (reason: string | null): void => {
    if (reason !== null) {
      totals.failOpens++;
      event.failOpen = reason;
      if (state.suspended === null) {
        conversations.suspend(state, reason);
        event.suspended = reason;
      }
    }
    ex.send(request.bytes, passOn(ex, conversations, event, clock), () => conversations.record(state, event));
  };
  if (state.suspended !== null) return original(null);

  let decision: Decision;
  try {
    decision = decide(request, state, conversations.settings, ex.now);
  } catch (error) {
    return original(`the request could not be analysed (${(error as Error).message})`);
  }
  if (decision.expired) {
    state.gap++;
    state.warmBreakInGap = false;
  }
  for (const s of decision.skipped) conversations.log(`conversation ${state.id}: ${s}`);
  if (decision.replacements.length === 0) return original(null);

  const rewrite = rewriteRequest(request, decision.replacements);
  if (!rewrite.ok) return original(`a tombstone could not be placed (${rewrite.reason})`);
  const problem = checkRewrite(request, rewrite.bytes, rewrite.removed);
  if (problem) return original(`the rewrite did not check out (${problem})`);
  try {
    conversations.archiveRemovals(state, decision.added);
  } catch (error) {
    return original(`the removed payloads could not be archived (${(error as Error).message})`);
  }
  for (const a of decision.added) state.decided.set(decidedKey(a.record.toolUseId, a.record.target), a.record);
  if (decision.moment === 'horizon') state.warmBreakInGap = true;
  event.tombstones = decision.replacements.length;
  event.added = decision.added.length;
  event.savedTokens = decision.savedTokens;
  event.cacheBreak = decision.added.length > 0 && decision.cacheBreak;
  if (decision.moment && decision.added.length > 0) event.moment = decision.moment;
  totals.rewritten++;
  totals.removals += decision.added.length;
  totals.savedTokens += decision.savedTokens;
  if (event.cacheBreak) totals.cacheBreaks++;
  if (decision.added.length > 0) {
    const why = decision.moment === 'cache-expired' ? 'the cache had expired' : decision.moment === 'evict-now' ? '--evict-now' : `it pays within ${conversations.settings.horizon} requests`;
    conversations.log(`conversation ${state.id} request ${state.requests}: ${decision.added.length} new tombstone(s) (${why}), ${decision.replacements.length} in all, ${humanTokens(decision.savedTokens)} tokens fewer`);
  }

  ex.send(
    rewrite.bytes,
    (up, pass) => {
      event.status = up.statusCode ?? 0;
      if (up.statusCode !== 400) return pass(done(ex, conversations, event, clock));
      // The upstream refused the rewritten bytes: the client's own go once, and nothing more is rewritten.
      void readAll(up, 64 * 1024).then((body) => {
        totals.failOpens++;
        // What the refused rewrite would have done did not happen.
        totals.rewritten--;
        totals.removals -= decision.added.length;
        totals.savedTokens -= decision.savedTokens;
        if (event.cacheBreak) totals.cacheBreaks--;
        event.cacheBreak = false;
        event.added = 0;
        const reason = `the upstream refused a rewritten request (400 ${errorType(body)})`;
        event.failOpen = reason;
        event.suspended = reason;
        event.tombstones = 0;
        event.savedTokens = 0;
        conversations.suspend(state, reason);
        ex.send(request.bytes, passOn(ex, conversations, event, clock), () => conversations.record(state, event));
      });
    },
    () => conversations.record(state, event),
  );
}

function passOn(ex: Exchange, conversations: Conversations, event: RequestEvent, clock: () => number): OnReply {
  return (up, pass) => {
    event.status = up.statusCode ?? 0;
    pass(done(ex, conversations, event, clock));
  };
}

/** When a reply has ended: the cache's clock moves on a good reply, and the request's record is written. */
function done(ex: Exchange, conversations: Conversations, event: RequestEvent, clock: () => number): (facts: ResponseFacts | null, ok: boolean) => void {
  return (facts, ok) => {
    const state = ex.state;
    if (ok && facts?.usage && event.status !== undefined && event.status >= 200 && event.status < 300) {
      const at = clock();
      state.lastActivityAt = at;
      state.lastResponse = { facts, at };
      if (!ex.request.messages.some((m) => m.role === 'assistant')) state.firstResponse = { facts, at };
      state.ttl = ttlFrom(facts.usage, state.ttl);
      event.usage = { input: facts.usage.inputTokens, cacheRead: facts.usage.cacheReadTokens, cacheWrite: facts.usage.cacheCreationTokens, output: facts.usage.outputTokens };
      event.endedAt = new Date(at).toISOString();
      if (state.ttl !== 'unknown') event.cacheTtl = state.ttl;
    }
    conversations.record(state, event);
  };
}

/** The error type of an Anthropic error body (never its message, which may quote the request). */
function errorType(body: Buffer): string {
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    const e = isObject(v) ? v['error'] : undefined;
    const t = isObject(e) ? e['type'] : undefined;
    return typeof t === 'string' ? t.replace(/[^\w.-]/g, '').slice(0, 60) : 'no error type';
  } catch {
    return 'no error type';
  }
}
