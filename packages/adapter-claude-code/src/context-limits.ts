import type { ContextLimits } from '@glassbox/core';

/**
 * Claude Code's context windows and auto-compaction, as version 2.1.197 decides them (its model
 * catalog and compaction functions, confirmed by runs of the real client: docs/claude-code/context-limits.md).
 *
 * - Window: 1,000,000 natively for the newest families; 200,000 for the others, or 1,000,000 with the
 *   1M-context variant — which a transcript does not name (the model id drops the `[1m]` suffix), so a
 *   request above 200,000 tokens is the only evidence of it.
 * - Auto-compaction: the auto-compact window W is the model's window unless a model default lowers it
 *   (200,000 for claude-sonnet-4-6 and claude-opus-4-6 at 1M; 967,000 for claude-sonnet-5); the
 *   threshold is W − 20,000 (output reserve) − 13,000 (buffer). When W is the model's own window the
 *   client does not compact ahead of time: it compacts when the API refuses a request as too long,
 *   and refuses requests itself from window − 20,000 − 3,000.
 * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` and the `autoCompactWindow` setting change this; a transcript
 * records neither, so the figures here are the defaults.
 */
const VERSION = 'Claude Code 2.1.197';
const NATIVE_1M = /^claude-(opus-4-[78]|sonnet-5|fable-5)/;
const KNOWN_200K = /^claude-(3|haiku-4-5|sonnet-4-[056]|opus-4-[0156])/;
const OUTPUT_RESERVE = 20_000;
const BUFFER = 13_000;
const LOCAL_REFUSAL_MARGIN = 3_000;

/**
 * The client's own auto-compact window for a model. For the 4-6 models it applies at 1M; runs of the
 * real client on claude-sonnet-4-6 compacted at 167k (after 160k had not), so it is taken as theirs
 * whatever the window.
 */
function modelDefaultWindow(model: string): number | null {
  if (/^claude-(sonnet|opus)-4-6/.test(model)) return 200_000;
  if (/^claude-sonnet-5/.test(model)) return 967_000;
  return null;
}

export function claudeContextLimits(model: string | null, reportedTokens: number | null): ContextLimits | null {
  if (!model) return null;
  const k = (n: number) => `${Math.round(n / 1000)}k`;
  let window: number;
  let windowBasis: string;
  if (NATIVE_1M.test(model)) {
    window = 1_000_000;
    windowBasis = `${model}: 1M tokens natively`;
  } else if (KNOWN_200K.test(model) || model.startsWith('claude-')) {
    const beta = (reportedTokens ?? 0) > 200_000;
    window = beta ? 1_000_000 : 200_000;
    windowBasis = beta
      ? `${model}: 200k, but a request reported ${k(reportedTokens ?? 0)} tokens, so the session uses the 1M-context variant`
      : `${model}: 200k (the 1M-context variant, if chosen, is not recorded in the transcript)`;
  } else return null;
  const lowered = modelDefaultWindow(model);
  const autoCompact = lowered
    ? {
        at: lowered - OUTPUT_RESERVE - BUFFER,
        proactive: true,
        basis: `${VERSION}: its auto-compact window for ${model} is ${k(lowered)}; it compacts at that minus ${k(OUTPUT_RESERVE)} kept for output and a ${k(BUFFER)} buffer`,
      }
    : {
        at: window - OUTPUT_RESERVE - LOCAL_REFUSAL_MARGIN,
        proactive: false,
        basis: `${VERSION} does not compact ${model} ahead of time: it compacts when a request is refused as too long (it refuses them itself from the window minus ${k(OUTPUT_RESERVE + LOCAL_REFUSAL_MARGIN)}). Setting CLAUDE_CODE_AUTO_COMPACT_WINDOW makes it compact at that window minus ${k(OUTPUT_RESERVE + BUFFER)}.`,
      };
  return { window, windowBasis, autoCompact };
}

/** Attachments that are Claude Code's own set-up rather than conversation (by their segment label). */
export function claudeSetupPart(segment: { kind: string; source: { type: string; label: string } }): string | null {
  if (segment.kind !== 'attachment') return null;
  const l = segment.source.label;
  if (/^(memory\b|nested_memory)/.test(l)) return 'memory files';
  if (/^(skill listing|skill_listing|invoked_skills)/.test(l)) return 'skills';
  if (/^(deferred tools|deferred_tools_delta|MCP instructions|mcp_instructions_delta)/.test(l)) return 'MCP and deferred tools';
  if (/^(agent listing|agent_listing_delta)/.test(l)) return 'agent listing';
  return null;
}

export const CLAUDE_REMAINDER_NOTE =
  "Claude Code's system prompt, its tool definitions, CLAUDE.md and the date: sent first in every request, never written to the transcript.";
