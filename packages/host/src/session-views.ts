/** The window's read-only views of an open session: /context, cost, the conversation in order. */
import { computeCost, turnAdditions } from '@glassbox/analysis';
import type { AgentFormat, ClassifiedSnapshot, LoadedSession, Session } from '@glassbox/core';
import type { ContextView, ConversationView, CostView, SessionExport, SnapshotView, TurnAdditionView } from '@glassbox/contract';
import type { ConversationInput, ExportFormat, Glassbox } from '@glassbox/engine';

/**
 * Characters of each conversation item sent to the window ("show more" opens all of them; the
 * inspector, or the export, has the rest): a 3 MB session crosses as about its own size at most.
 */
const CONVERSATION_TEXT_CAP = 16_000;

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

/** The whole session read in order (the engine's), each item's text cut for the list. */
export function conversationView(glassbox: Glassbox, input: Omit<ConversationInput, 'textCap'>): ConversationView {
  return glassbox.conversations.read({ ...input, textCap: CONVERSATION_TEXT_CAP });
}

/** The session as a file for the window to save: Markdown, or HTML that needs nothing else. */
export function exportView(glassbox: Glassbox, input: Omit<ConversationInput, 'textCap'>, format: ExportFormat): SessionExport {
  const made = glassbox.conversations.render(input, format, new Date());
  const id = input.snapshot.session.id.replace(/[^A-Za-z0-9._-]/g, '_');
  return { fileName: `${id}.${format}`, mime: format === 'md' ? 'text/markdown' : 'text/html', text: made.text };
}
