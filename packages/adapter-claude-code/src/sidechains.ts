import { contextTokens, type ChainNode, type LinkedWindow, type Session, type ToolCall } from '@glassbox/core';
import { SYNTHETIC_MODEL } from './summary/placeholder';

function startedBy(session: Session, prompt: string): ToolCall | undefined {
  for (const call of session.toolCalls.values()) {
    if (call.op.kind === 'subagent' && call.op.promptStart && prompt.startsWith(call.op.promptStart)) return call;
  }
  return undefined;
}

/**
 * Old clients (1.x) wrote subagent conversations into the main file as `isSidechain` records.
 * Each sidechain root starts its own window; they are never part of the parent's window. The parser
 * lists them on the session (`inlineSubagents`), so analysis shows them like subagent files.
 */
export function inlineSidechainWindows(session: Session): LinkedWindow[] {
  if (session.agentId !== undefined) return [];
  const rootOf = new Map<string, string>();
  const find = (n: ChainNode): string => {
    const path: ChainNode[] = [];
    let cur: ChainNode | undefined = n;
    let root = n.uuid;
    while (cur) {
      const known = rootOf.get(cur.uuid);
      if (known) {
        root = known;
        break;
      }
      path.push(cur);
      root = cur.uuid;
      const parent: ChainNode | undefined = cur.parentUuid ? session.nodes.get(cur.parentUuid) : undefined;
      cur = parent && parent.isSidechain && !path.includes(parent) ? parent : undefined;
    }
    for (const p of path) rootOf.set(p.uuid, root);
    return root;
  };
  const groups = new Map<string, ChainNode[]>();
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (!n || !n.isSidechain) continue;
    const root = find(n);
    const g = groups.get(root);
    if (g) g.push(n);
    else groups.set(root, [n]);
  }
  const out: LinkedWindow[] = [];
  for (const [root, nodes] of groups) {
    let tokens = 0;
    let blocks = 0;
    let reported: number | null = null;
    for (const n of nodes) {
      if (n.kind === 'system' || n.kind === 'progress' || n.kind === 'other') continue;
      for (const b of n.blocks) {
        tokens += b.tokens;
        blocks++;
      }
      if (n.kind === 'assistant' && n.usage && n.model !== SYNTHETIC_MODEL) reported = contextTokens(n.usage);
    }
    const first = session.nodes.get(root);
    const w: LinkedWindow = {
      agentId: `sidechain@${first?.line ?? 0}`,
      path: session.path,
      estimatedTokens: tokens,
      reportedTokens: reported,
      segments: blocks,
    };
    const prompt = first?.promptText ?? first?.blocks[0]?.preview;
    if (prompt) w.description = prompt.slice(0, 80);
    w.agentType = 'inline sidechain';
    // The Task call that started it: the sidechain's first prompt is the call's prompt.
    const call = prompt ? startedBy(session, prompt) : undefined;
    if (call) {
      w.toolUseId = call.id;
      if (call.op.kind === 'subagent') w.description = call.op.description;
    }
    out.push(w);
  }
  return out;
}
