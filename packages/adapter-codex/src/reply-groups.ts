import type { ChainNode, Usage, UsageRecord } from '@glassbox/core';
import type { Generation } from './generation';
import type { JsonObject } from './json';
import type { CodexSession } from './session-types';
import { neutralUsage, parseTokenCount, type CodexRequestUsage } from './usage';

/**
 * The items of one model reply and the usage its request reported. 2026 rollouts write a request's
 * `token_count` after its reply's items; 2025 rollouts (0.57, 0.58) write it before them (and repeat
 * it after): there a count waits (`pending`) for the next reply's items.
 */
interface Group {
  id: string;
  nodes: ChainNode[];
  usage: Usage | null;
  /** No more items join it: its count came (2026), or the next request's count (2025). */
  closed: boolean;
}

interface PendingUsage {
  usage: Usage;
  line: number;
  model: string;
  ts: string | undefined;
}

/**
 * Which reply each request's usage belongs to: assistant items join the open reply, a `token_count`
 * closes it with its usage. Every request is listed (`requests`), and the last that reported usage
 * is the context the session carries (`reported`).
 */
export class ReplyGroups {
  readonly requests: CodexRequestUsage[] = [];
  reported: CodexSession['reported'] = null;
  private group: Group | null = null;
  private pending: PendingUsage | null = null;
  private groups = 0;
  private lastCumulative: number | null = null;

  /** `kept`: the usage of requests whose reply left no item in the window (the window's let-go usage). */
  constructor(private readonly kept: UsageRecord[]) {}

  /** An assistant item joins the open reply, or starts one (taking a count that came before it). */
  join(node: ChainNode, model: string): void {
    if (!this.group || this.group.closed) {
      this.group = { id: `response-${++this.groups}`, nodes: [], usage: this.pending?.usage ?? null, closed: false };
      this.pending = null;
    }
    node.messageId = this.group.id;
    node.model = model;
    if (this.group.usage) node.usage = this.group.usage;
    this.group.nodes.push(node);
  }

  /** Takes a `token_count` event; false when one of its counts was not a whole number ≥ 0 (taken as 0). */
  tokenCount(p: JsonObject, line: number, ts: string | undefined, model: string, generation: Generation | null): boolean {
    const bad = { invalid: false };
    const tc = parseTokenCount(p, bad);
    this.take(tc, line, ts, model, generation);
    return !bad.invalid;
  }

  private take(tc: ReturnType<typeof parseTokenCount>, line: number, ts: string | undefined, model: string, generation: Generation | null): void {
    if (!tc) return;
    // Codex writes the same count twice at times; an unchanged running total is not a new request.
    if (tc.cumulativeTotal !== null && tc.cumulativeTotal === this.lastCumulative) return;
    this.lastCumulative = tc.cumulativeTotal ?? this.lastCumulative;
    if (tc.last.input === 0 && tc.last.output === 0) return;
    const req: CodexRequestUsage = { line, model, ...tc.last };
    if (ts) req.timestamp = ts;
    this.requests.push(req);
    this.reported = { line, inputTokens: tc.last.input, totalTokens: tc.last.total, contextWindow: tc.contextWindow };
    const usage = neutralUsage(tc.last);
    const group = this.group;
    if (generation === 'envelope') {
      // 2025: the count comes before its reply's items; an earlier count whose reply left none still counts.
      if (group) group.closed = true;
      if (this.pending) this.keepUsage(this.pending);
      this.pending = { usage, line, model, ts };
      return;
    }
    if (group && !group.closed && group.usage === null) {
      group.usage = usage;
      group.closed = true;
      // A reply whose items a compaction already let go (compacted mid-reply) still cost its usage.
      if (group.nodes.length > 0) {
        for (const n of group.nodes) n.usage = usage;
        return;
      }
    }
    // A request whose reply left no item in the file: its usage still counts.
    this.keepUsage({ usage, line, model, ts });
  }

  /**
   * A count in a forked thread's copy of its parent's history (inherited.ts): the parent's request,
   * not this thread's. Its running total is the baseline the thread's own counts continue from (Codex
   * repeats it when the thread starts), so a repeat of it is no request either.
   */
  inheritedCount(p: JsonObject): void {
    const tc = parseTokenCount(p);
    if (tc?.cumulativeTotal != null) this.lastCumulative = tc.cumulativeTotal;
  }

  /**
   * A forked thread's copied parent history ended (inherited.ts): the parent's last reply, whose usage
   * is the parent's, takes no later count, and a count waiting for its items is dropped.
   */
  endInherited(): void {
    if (this.group) this.group.closed = true;
    this.pending = null;
  }

  /** A compaction let go of the open reply's items (the reply itself may go on after it). */
  compacted(): void {
    if (this.group) this.group = { ...this.group, nodes: [] };
  }

  /** The parse ended: a count still waiting for its reply's items counts on its own. */
  finish(): void {
    if (this.pending) this.keepUsage(this.pending);
    this.pending = null;
  }

  private keepUsage(p: PendingUsage): void {
    const u: UsageRecord = { messageId: `request-L${p.line}`, model: p.model, line: p.line, usage: p.usage, isSidechain: false };
    if (p.ts) u.timestamp = p.ts;
    this.kept.push(u);
  }
}
