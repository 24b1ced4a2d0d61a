import type { ChainNode, ModelChoice, Problem, Session } from '@glassbox/core';

/** The records the next request would carry, in conversation order. */
export interface ResidentWindow {
  nodes: ChainNode[];
  /** `<uuid>:<block index>` of blocks no longer sent (cleared by a microcompaction, or left out by the client). */
  excludedBlocks: Set<string>;
  /** Of those, the ones the client leaves out of the request, with the reason (see `applyRequestView`). */
  notSent: Map<string, string>;
  /** The model the request is assumed to use. */
  model: ModelChoice;
  /** Bytes the client adds around a reminder it appends to a tool result on that model; null: sent on its own. */
  joinedReminderOverhead: number | null;
  /** The compaction boundary the window starts at, if any. */
  boundary: ChainNode | null;
  /** Compaction boundaries of this thread in the whole file. */
  compactions: number;
  microcompactions: number;
  problems: Problem[];
}

/**
 * Rebuilds the live branch the way the client does when it resumes (docs/claude-code/transcript-format.md): walk parents
 * from the leaf to the last compaction boundary, splice in the segment the compaction preserved,
 * then re-collect the records of split responses and the results of parallel tool calls, which the
 * parent chain alone skips.
 */
export function reconstructWindow(session: Session): ResidentWindow {
  const problems: Problem[] = [];
  const leaf = session.leafUuid ? session.nodes.get(session.leafUuid) : undefined;
  const sidechain = leaf?.isSidechain ?? false;
  let compactions = 0;
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (n && n.kind === 'compact-boundary' && n.isSidechain === sidechain) compactions++;
  }
  const request = { notSent: new Map<string, string>(), model: { model: null, basis: 'not yet chosen' }, joinedReminderOverhead: null };
  if (!leaf) {
    return { nodes: [], excludedBlocks: new Set(), boundary: null, compactions, microcompactions: 0, problems, ...request };
  }

  const chain = walkToRoot(session, leaf, problems);
  const boundary = chain[0]?.kind === 'compact-boundary' ? chain[0] : null;
  const spliced = boundary ? splicePreserved(session, chain, boundary) : chain;
  const nodes = recollect(session, spliced, sidechain);

  const excludedBlocks = new Set<string>();
  let microcompactions = 0;
  const cleared = new Set<string>();
  for (const n of nodes) {
    if (n.kind !== 'microcompact-boundary') continue;
    microcompactions++;
    for (const id of n.compactedToolIds ?? []) cleared.add(id);
  }
  if (cleared.size > 0) {
    for (const n of nodes) {
      for (const b of n.blocks) {
        if (b.kind === 'tool-result' && b.toolUseId && cleared.has(b.toolUseId)) excludedBlocks.add(`${n.uuid}:${b.index}`);
      }
    }
  }
  return { nodes, excludedBlocks, boundary, compactions, microcompactions, problems, ...request };
}

/** Leaf to root (returned root first), stopping after a compaction boundary. */
function walkToRoot(session: Session, leaf: ChainNode, problems: Problem[]): ChainNode[] {
  const out: ChainNode[] = [];
  const seen = new Set<string>();
  let cur: ChainNode | undefined = leaf;
  while (cur && !seen.has(cur.uuid)) {
    seen.add(cur.uuid);
    out.push(cur);
    if (cur.kind === 'compact-boundary') break;
    const parentId: string | null = cur.parentUuid;
    if (parentId === null) break;
    const parent = session.nodes.get(parentId);
    if (parent) {
      cur = parent;
      continue;
    }
    const fallback = timestampFallback(session, cur, seen);
    problems.push({
      code: 'dangling_parent',
      severity: 'warning',
      file: session.path,
      line: cur.line,
      message: fallback
        ? `${session.path}:${cur.line}: parent ${parentId} is missing; linked to the record at line ${fallback.line} by timestamp, as the client does`
        : `${session.path}:${cur.line}: parent ${parentId} is missing; the client resumes from here and drops everything earlier`,
    });
    cur = fallback;
  }
  return out.reverse();
}

/** The client re-links a missing parent to the closest earlier record within a few seconds (docs/claude-code/). */
function timestampFallback(session: Session, node: ChainNode, seen: Set<string>): ChainNode | undefined {
  if (!node.timestamp) return undefined;
  const t = Date.parse(node.timestamp);
  if (Number.isNaN(t)) return undefined;
  let best: ChainNode | undefined;
  let bestT = -Infinity;
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (!n || seen.has(n.uuid) || n.isSidechain !== node.isSidechain || !n.timestamp) continue;
    const nt = Date.parse(n.timestamp);
    if (nt < t && t - nt <= session.parentFallbackMs && nt > bestT) {
      best = n;
      bestT = nt;
    }
  }
  return best;
}

/** Places the messages a compaction kept verbatim right after its anchor (the summary). */
function splicePreserved(session: Session, chain: ChainNode[], boundary: ChainNode): ChainNode[] {
  const uuids = boundary.preservedUuids ?? [];
  if (uuids.length === 0) return chain;
  const onChain = new Set(chain.map((n) => n.uuid));
  const preserved: ChainNode[] = [];
  if (uuids.length === 2 && !uuids.every((u) => onChain.has(u))) {
    // Only head and tail known: walk from the tail back to the head.
    const [head, tail] = uuids as [string, string];
    const seg: ChainNode[] = [];
    const seen = new Set<string>();
    let cur = session.nodes.get(tail);
    while (cur && !seen.has(cur.uuid)) {
      seen.add(cur.uuid);
      seg.push(cur);
      if (cur.uuid === head) break;
      cur = cur.parentUuid ? session.nodes.get(cur.parentUuid) : undefined;
    }
    preserved.push(...seg.reverse());
  } else {
    for (const u of uuids) {
      const n = session.nodes.get(u);
      if (n) preserved.push(n);
    }
  }
  const fresh = preserved.filter((n) => !onChain.has(n.uuid));
  if (fresh.length === 0) return chain;
  const anchorAt = chain.findIndex((n) => n.uuid === boundary.preservedAnchorUuid);
  const at = anchorAt >= 0 ? anchorAt + 1 : Math.min(2, chain.length);
  return [...chain.slice(0, at), ...fresh, ...chain.slice(at)];
}

/**
 * Adds the sibling records of each response (same message id) and the results of its tool calls,
 * in file order, right after the first of them on the chain.
 */
function recollect(session: Session, chain: ChainNode[], sidechain: boolean): ChainNode[] {
  const byMessage = new Map<string, ChainNode[]>();
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (!n || n.kind !== 'assistant' || !n.messageId || n.isSidechain !== sidechain) continue;
    const list = byMessage.get(n.messageId);
    if (list) list.push(n);
    else byMessage.set(n.messageId, [n]);
  }
  const emitted = new Set<string>();
  const out: ChainNode[] = [];
  const emit = (n: ChainNode): void => {
    if (emitted.has(n.uuid)) return;
    emitted.add(n.uuid);
    out.push(n);
  };
  for (const n of chain) {
    if (emitted.has(n.uuid)) continue;
    if (n.kind !== 'assistant' || !n.messageId) {
      emit(n);
      continue;
    }
    const group = byMessage.get(n.messageId) ?? [n];
    for (const g of group) emit(g);
    const results: ChainNode[] = [];
    for (const g of group) {
      for (const b of g.blocks) {
        if (b.kind !== 'tool-use' || !b.toolUseId) continue;
        const call = session.toolCalls.get(b.toolUseId);
        const r = call?.resultUuid ? session.nodes.get(call.resultUuid) : undefined;
        if (r && !emitted.has(r.uuid) && !results.includes(r)) results.push(r);
      }
    }
    results.sort((a, b) => a.line - b.line);
    for (const r of results) emit(r);
  }
  return out;
}
