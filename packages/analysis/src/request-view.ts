import type { Block, ChainNode, ModelChoice, RequestSummary, Session } from '@glassbox/core';
import type { ResidentWindow } from './resident';

export interface RequestViewOptions {
  /** The model of the next request; default: what the agent's client would choose. */
  model?: string;
  /** The version of the agent's client that sends it; default: the newest the adapter knows. */
  client?: string;
  now: Date;
}

const key = (node: ChainNode, block: Block): string => `${node.uuid}:${block.index}`;

/**
 * Narrows the resident window to what the next request carries: blocks the adapter marked as never
 * sent, reasoning written by another model than the request's, and the halves of tool pairs that lost
 * their other half (a request pairs every call with its result). Marks them in `window.notSent` and
 * `window.excludedBlocks`; records the model assumed.
 */
export function applyRequestView(session: Session, window: ResidentWindow, options: RequestViewOptions): void {
  const policy = session.requestPolicy;
  const choice: ModelChoice =
    options.model !== undefined
      ? { model: options.model, basis: 'named by the caller' }
      : (policy?.defaultModel(window.nodes, options.now, options.client) ?? { model: null, basis: 'the agent states no rule; every block counts' });
  window.model = choice;
  window.joinedReminderOverhead = choice.model && policy ? policy.joinedReminderOverhead(choice.model) : null;

  const drop = (node: ChainNode, block: Block, reason: string): void => {
    const k = key(node, block);
    if (window.notSent.has(k)) return;
    window.notSent.set(k, reason);
    window.excludedBlocks.add(k);
  };
  // A model whose provider drops the reasoning of earlier turns holds only the current turn's.
  const keepsReasoning = choice.model && policy?.keepsReasoning ? policy.keepsReasoning(choice.model) : true;
  const currentTurn = keepsReasoning ? 0 : lastPromptIndex(window.nodes);
  window.nodes.forEach((node, i) => {
    for (const block of node.blocks) {
      const reasoning = block.kind === 'thinking' || block.kind === 'redacted-thinking';
      if (node.notSent) drop(node, block, node.notSent);
      else if (block.notSent) drop(node, block, block.notSent);
      else if (block.sentWithModel && choice.model && block.sentWithModel !== choice.model) {
        drop(node, block, `reasoning by ${block.sentWithModel}, not sent to ${choice.model}`);
      } else if (reasoning && i < currentTurn) drop(node, block, `reasoning of an earlier turn, which ${choice.model ?? 'the model'} does not keep`);
      else {
        const reason = policy?.notSentOn?.(node, block, choice.model, options.client);
        if (reason) drop(node, block, reason);
      }
    }
  });
  // Pairing is a rule of the client's API; without the agent's policy nothing is assumed about it.
  if (policy) dropUnpaired(window, drop);
}

function lastPromptIndex(nodes: readonly ChainNode[]): number {
  for (let i = nodes.length - 1; i >= 0; i--) if (nodes[i]?.kind === 'prompt') return i;
  return 0;
}

/** A request carries a call only with its answer, and an answer only after its call. */
function dropUnpaired(window: ResidentWindow, drop: (node: ChainNode, block: Block, reason: string) => void): void {
  const calls = new Set<string>();
  const answers = new Set<string>();
  for (const node of window.nodes) {
    for (const b of node.blocks) {
      if (!b.toolUseId || window.notSent.has(key(node, b))) continue;
      if (b.kind === 'tool-use') calls.add(b.toolUseId);
      else answers.add(b.toolUseId);
    }
  }
  for (const node of window.nodes) {
    for (const b of node.blocks) {
      if (!b.toolUseId || window.notSent.has(key(node, b))) continue;
      if (b.kind === 'tool-use' && !answers.has(b.toolUseId)) drop(node, b, 'a tool call that was never answered');
      if (b.kind === 'tool-result' && !calls.has(b.toolUseId)) drop(node, b, 'a tool result whose call is not in the window');
    }
  }
}

/** The request in figures: items as the client sends them, and what the window holds that it leaves out. */
export function requestSummary(window: ResidentWindow, sentKinds: ReadonlySet<string>): RequestSummary {
  const items = { toolCalls: 0, toolResults: 0, emptyResults: 0, texts: 0, thinking: 0, attachments: 0 };
  const models = new Set<string>();
  const byReason = new Map<string, { items: number; bytes: number }>();
  for (const node of window.nodes) {
    if (node.kind === 'assistant' && node.model && !node.synthetic && !node.notSent) models.add(node.model);
    for (const b of node.blocks) {
      const k = key(node, b);
      const reason = window.notSent.get(k);
      if (reason !== undefined) {
        const r = byReason.get(reason) ?? { items: 0, bytes: 0 };
        r.items++;
        r.bytes += b.bytes;
        byReason.set(reason, r);
        continue;
      }
      if (!sentKinds.has(node.kind)) continue;
      if (b.kind === 'tool-use') items.toolCalls++;
      else if (b.kind === 'tool-result') {
        items.toolResults++;
        if (b.bytes === 0) items.emptyResults++;
      } else if (b.kind === 'thinking' || b.kind === 'redacted-thinking') items.thinking++;
      else if (node.kind === 'attachment') items.attachments++;
      else if (b.kind === 'text') items.texts++;
    }
  }
  return {
    model: window.model.model,
    modelBasis: window.model.basis,
    models: [...models],
    notSent: [...byReason.entries()].map(([reason, v]) => ({ reason, ...v })).sort((a, b) => b.bytes - a.bytes),
    items,
  };
}
