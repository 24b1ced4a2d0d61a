import type { ChainNode } from '@glassbox/core';

/**
 * A response whose records hold nothing but reasoning (a reply cut off after its thinking) is left out
 * of the request by the client, records and all (docs/claude-code/what-the-client-sends.md).
 */
export function markReasoningAlone(nodes: ReadonlyMap<string, ChainNode>): void {
  const byMessage = new Map<string, ChainNode[]>();
  for (const n of nodes.values()) {
    if (n.kind !== 'assistant' || !n.messageId) continue;
    const group = byMessage.get(n.messageId);
    if (group) group.push(n);
    else byMessage.set(n.messageId, [n]);
  }
  for (const group of byMessage.values()) {
    const blocks = group.flatMap((n) => n.blocks);
    if (blocks.length === 0) continue;
    if (!blocks.every((b) => b.kind === 'thinking' || b.kind === 'redacted-thinking')) continue;
    for (const b of blocks) b.notSent = 'reasoning of a reply that has nothing else';
  }
}
