import type { ChainNode, UsageRecord } from '@glassbox/core';

/**
 * The records the next request would carry, as a chain in file order, and what was let go at a
 * compaction: memory follows the resident window, not the file. Prompts and compaction boundaries
 * stay for history and cost; the usage of let-go replies stays for cost.
 */
export class WindowChain {
  readonly nodes = new Map<string, ChainNode>();
  readonly order: string[] = [];
  lastUuid: string | null = null;
  readonly prunedUsage: UsageRecord[] = [];
  prunedRecords = 0;

  append(node: ChainNode): void {
    this.nodes.set(node.uuid, node);
    this.order.push(node.uuid);
    this.lastUuid = node.uuid;
  }

  /** Lets go of the window before a compaction, keeping usage (once per reply), prompts and boundaries. */
  prune(): void {
    const kept: string[] = [];
    const usageTaken = new Set<string>();
    for (const uuid of this.order) {
      const n = this.nodes.get(uuid);
      if (!n) continue;
      if (n.kind === 'prompt' || n.kind === 'compact-boundary') {
        kept.push(uuid);
        continue;
      }
      if (n.kind === 'assistant' && n.usage && n.messageId && !usageTaken.has(n.messageId)) {
        usageTaken.add(n.messageId);
        const u: UsageRecord = { messageId: n.messageId, model: n.model ?? 'unknown', line: n.line, usage: n.usage, isSidechain: false };
        if (n.timestamp) u.timestamp = n.timestamp;
        this.prunedUsage.push(u);
      }
      this.nodes.delete(uuid);
      this.prunedRecords++;
    }
    this.order.length = 0;
    this.order.push(...kept);
  }
}
