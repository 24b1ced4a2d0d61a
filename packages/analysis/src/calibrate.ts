import { contextTokens, type ChainNode, type Segment, type Session } from '@glassbox/core';

export interface Calibration {
  reportedTokens: number | null;
  /** Index in `segments` of the first segment the last reported request did not carry. */
  reportedUpTo: number;
  factor: number;
  basis: string;
  lastModel: string | null;
}

const MIN_FACTOR = 0.5;
const MAX_FACTOR = 2;

/**
 * The window's true size is the provider's figure for the last request: input + cache writes +
 * cache reads of the last resident main-thread response. Segment sizes are local estimates; they are
 * scaled so that, with the fixed part (system prompt, tools, memory — estimated from the first
 * request of the session), they add up to that figure. The factor is bounded so that odd usage
 * (gateways, scripted models) cannot distort the estimates beyond reason.
 */
export function calibrate(session: Session, residentNodes: ChainNode[], segments: Segment[]): Calibration {
  let last: ChainNode | undefined;
  for (let i = residentNodes.length - 1; i >= 0; i--) {
    const n = residentNodes[i];
    // Synthetic replies and API error records carry no real usage: the figure is the last real request's.
    if (n && n.kind === 'assistant' && n.usage && !n.synthetic && contextTokens(n.usage) > 0) {
      last = n;
      break;
    }
  }
  if (!last?.usage) {
    return { reportedTokens: null, reportedUpTo: segments.length, factor: 1, basis: 'no provider usage in the window: raw estimates', lastModel: null };
  }
  // Every record of the last response shares its usage: take the largest, as for billing.
  let usage = last.usage;
  for (const n of residentNodes) {
    if (n.kind === 'assistant' && n.messageId === last.messageId && n.usage && contextTokens(n.usage) > contextTokens(usage)) usage = n.usage;
  }
  const reported = contextTokens(usage);
  const firstOfLast = segments.findIndex((s) => {
    const node = session.nodes.get(s.uuid);
    return node?.kind === 'assistant' && node.messageId === last.messageId;
  });
  const upTo = firstOfLast >= 0 ? firstOfLast : segments.length;
  let estimated = 0;
  for (let i = 0; i < upTo; i++) estimated += segments[i]?.tokens ?? 0;
  const fixed = fixedPartEstimate(session);
  if (fixed === null || estimated === 0) {
    return { reportedTokens: reported, reportedUpTo: upTo, factor: 1, basis: 'raw estimates (no first request to measure the fixed part)', lastModel: last.model ?? null };
  }
  const raw = (reported - fixed) / estimated;
  const factor = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, Number.isFinite(raw) && raw > 0 ? raw : 1));
  const basis =
    raw === factor
      ? `estimates scaled ×${factor.toFixed(2)} to match the reported total (fixed part ≈ ${fixed} tokens from the first request)`
      : `scale bounded to ×${factor.toFixed(2)} (the reported figures imply ×${raw.toFixed(2)}; fixed part ≈ ${fixed} tokens)`;
  return { reportedTokens: reported, reportedUpTo: upTo, factor, basis, lastModel: last.model ?? null };
}

/** System prompt, tools and memory: the first request's reported size minus what the transcript shows it carried. */
function fixedPartEstimate(session: Session): number | null {
  let before = 0;
  for (const uuid of session.order) {
    const n = session.nodes.get(uuid);
    if (!n || n.isSidechain) continue;
    if (n.kind === 'assistant') {
      if (!n.usage || n.synthetic) return null;
      return Math.max(0, contextTokens(n.usage) - before);
    }
    if (n.kind === 'prompt' || n.kind === 'attachment' || n.kind === 'meta') {
      for (const b of n.blocks) if (!b.notSent) before += b.tokens;
    }
  }
  return null;
}
