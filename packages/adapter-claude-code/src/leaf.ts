import type { ChainNode } from '@glassbox/core';

function isMessage(n: ChainNode): boolean {
  return n.rawType === 'user' || n.rawType === 'assistant';
}

/**
 * The leaf Claude Code resumes from (docs/claude-code/transcript-format.md): the `leafUuid` of the last `last-prompt` record,
 * unless the last user/assistant record of the main thread descends from it (then that record);
 * with no usable `last-prompt`, the last user/assistant record of the main thread.
 */
export function chooseLeaf(
  nodes: ReadonlyMap<string, ChainNode>,
  order: readonly string[],
  lastPromptLeaf: string | null,
  lastPromptLine: number,
): string | null {
  let lastMessage: ChainNode | undefined;
  for (let i = order.length - 1; i >= 0; i--) {
    const n = nodes.get(order[i] ?? '');
    if (n && !n.isSidechain && isMessage(n)) {
      lastMessage = n;
      break;
    }
  }
  if (lastPromptLeaf && nodes.has(lastPromptLeaf)) {
    if (lastMessage && lastMessage.line > lastPromptLine && descendsFrom(nodes, lastMessage.uuid, lastPromptLeaf)) {
      return lastMessage.uuid;
    }
    return lastPromptLeaf;
  }
  if (lastMessage) return lastMessage.uuid;
  // A sidechain file (subagent) has only sidechain records: its last message is its leaf.
  for (let i = order.length - 1; i >= 0; i--) {
    const n = nodes.get(order[i] ?? '');
    if (n && isMessage(n)) return n.uuid;
  }
  return null;
}

export function descendsFrom(nodes: ReadonlyMap<string, ChainNode>, uuid: string, ancestor: string): boolean {
  const seen = new Set<string>();
  let cur: string | null = uuid;
  while (cur && !seen.has(cur)) {
    if (cur === ancestor) return true;
    seen.add(cur);
    const node: ChainNode | undefined = nodes.get(cur);
    cur = node?.parentUuid ?? null;
  }
  return false;
}
