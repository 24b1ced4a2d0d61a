import type { ContextLimits } from '@glassbox/core';

/**
 * Codex CLI's window and auto-compaction (docs/codex/format.md): each `token_count` event states
 * `model_context_window`, the usable window (95 % of the model's), and Codex compacts when a response
 * reports `total_tokens` at 90 % of that window unless `model_auto_compact_token_limit` overrides it.
 * `stated` is the window the rollout's last count gave; without one nothing is claimed.
 */
export function codexContextLimits(model: string | null, stated: number | null): ContextLimits | null {
  if (!stated || stated <= 0) return null;
  const k = (n: number) => `${Math.round(n / 1000)}k`;
  return {
    window: stated,
    windowBasis: `${model ?? 'the model'}: ${k(stated)} usable, as the rollout's token counts state it (95 % of the model's window)`,
    autoCompact: {
      at: Math.round(stated * 0.9),
      proactive: true,
      basis: 'Codex CLI compacts when a response reports 90 % of the usable window (model_auto_compact_token_limit overrides it; a rollout does not record that setting)',
    },
  };
}

export const CODEX_REMAINDER_NOTE = "Codex's base instructions and tool definitions: sent with every request, not written to the rollout.";
