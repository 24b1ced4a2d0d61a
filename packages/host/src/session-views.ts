/** The window's read-only views of an open session: /context, cost, the conversation in order. */
import { computeCost, turnAdditions } from '@glassbox/analysis';
import type { AgentFormat, ClassifiedSnapshot, LoadedSession, Session } from '@glassbox/core';
import type { ContextView, ConversationView, CostView, SnapshotView, TurnAdditionView } from '@glassbox/contract';
import { segmentContent } from './segment-detail';
import type { SourceBytes } from './source-bytes';

/** Characters of each conversation item sent to the window; the inspector shows the whole text. */
const CONVERSATION_TEXT_CAP = 1200;

/** The model's window, auto-compaction, and the set-up the transcript shows, from the agent's adapter. */
export function contextView(format: AgentFormat, snapshot: ClassifiedSnapshot, session: Session): ContextView {
  const model = snapshot.context.lastModel;
  const largest = snapshot.turns.reduce((m, t) => Math.max(m, t.contextTokens), snapshot.context.reportedTokens ?? 0);
  const parts = new Map<string, { tokens: number; segments: number }>();
  if (format.setupPart) {
    for (const s of snapshot.segments) {
      const part = format.setupPart(s);
      if (!part) continue;
      const p = parts.get(part) ?? { tokens: 0, segments: 0 };
      p.tokens += s.tokens;
      p.segments++;
      parts.set(part, p);
    }
  }
  return {
    limits: format.contextLimits?.({ model, reportedTokens: largest || null, session }) ?? null,
    model,
    setup: [...parts].map(([label, p]) => ({ label, ...p })).sort((a, b) => b.tokens - a.tokens),
    remainderNote: format.remainderNote ?? null,
  };
}

/** Provider-reported usage priced with the agent's dated list prices, per model and per turn. */
export function costView(format: AgentFormat, loaded: LoadedSession): CostView {
  const r = computeCost(loaded.session, loaded.subagents, format.prices);
  return { priceTable: r.priceTable, total: r.total, byModel: r.byModel, turns: r.turns, subagents: r.subagents, unknownModels: r.unknownModels, client: r.client };
}

/** The header's figure: the whole session's cost, and the price table's date. */
export function costSummary(view: CostView): NonNullable<SnapshotView['cost']> {
  const summary: NonNullable<SnapshotView['cost']> = { usd: view.total.cost, priceAsOf: view.priceTable.asOf, unknownModels: view.unknownModels };
  if (view.client) summary.client = { usd: view.client.clientUsd, differs: view.client.differs };
  return summary;
}

export function additionsOf(snapshot: ClassifiedSnapshot): TurnAdditionView[] {
  return turnAdditions(snapshot);
}

/** The resident window read in order: each segment's text as the model reads it, cut for the list. */
export function conversationView(loaded: LoadedSession, snapshot: ClassifiedSnapshot, bytes: SourceBytes, format: AgentFormat): ConversationView {
  const items = snapshot.segments.map((s) => {
    const full = segmentContent(loaded.session, s, bytes, format);
    const text = full.length > CONVERSATION_TEXT_CAP ? full.slice(0, CONVERSATION_TEXT_CAP) : full;
    return {
      segmentId: s.id,
      kind: s.kind,
      class: s.class,
      label: s.source.label,
      ...(s.toolName ? { toolName: s.toolName } : {}),
      line: s.line,
      turn: s.turn,
      tokens: s.tokens,
      text,
      cut: full.length - text.length,
    };
  });
  return { items, compacted: snapshot.segments.some((s) => s.kind === 'compact-summary') };
}
