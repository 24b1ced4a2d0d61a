import { findModel, type ContextLimits } from '@glassbox/core';
import { CLAUDE_MODELS } from './models/catalogue';

/**
 * Claude Code's context windows and auto-compaction, as version 2.1.197 decides them (its model
 * catalog and compaction functions, confirmed by runs of the real client: docs/claude-code/context-limits.md).
 *
 * - Window: the model's own, from the client's catalogue (models/catalogue.ts); for a 200k model with a
 *   1M-context variant, which a transcript does not name (the model id drops the `[1m]` suffix), a
 *   request above 200,000 tokens is the only evidence of the variant.
 * - Auto-compaction: the auto-compact window W is the model's window unless a model default lowers it
 *   (200,000 for claude-sonnet-4-6 and claude-opus-4-6 at 1M; 967,000 for claude-sonnet-5); the
 *   threshold is W − 20,000 (output reserve) − 13,000 (buffer). When W is the model's own window the
 *   client does not compact ahead of time: it compacts when the API refuses a request as too long,
 *   and refuses requests itself from window − 20,000 − 3,000.
 * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` and the `autoCompactWindow` setting change this; a transcript
 * records neither, so the figures here are the defaults.
 */
const VERSION = 'Claude Code 2.1.197 (the rule is unchanged in 2.1.332)';
const OUTPUT_RESERVE = 20_000;
const BUFFER = 13_000;
const LOCAL_REFUSAL_MARGIN = 3_000;
const k = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`);

/**
 * The client's own auto-compact window for a model. For the 4-6 models it applies at 1M; runs of the
 * real client on claude-sonnet-4-6 compacted at 167k (after 160k had not), so it is taken as theirs
 * whatever the window.
 */
function modelDefaultWindow(family: string): number | null {
  if (family === 'claude-sonnet-4-6' || family === 'claude-opus-4-6') return 200_000;
  if (family === 'claude-sonnet-5') return 967_000;
  return null;
}

/** The window and auto-compaction of a model the catalogue knows; null for an unknown model (said so, never guessed). */
export function claudeContextLimits(model: string | null, reportedTokens: number | null): ContextLimits | null {
  if (!model) return null;
  const info = findModel(CLAUDE_MODELS, model);
  if (!info) return null;
  let window = info.contextWindow;
  let windowBasis = `${info.label}: ${k(window)} tokens (${CLAUDE_MODELS.source.split(' (')[0]})`;
  if (info.longContextWindow !== null) {
    const beta = (reportedTokens ?? 0) > info.contextWindow;
    if (beta) {
      window = info.longContextWindow;
      windowBasis = `${info.label}: ${k(info.contextWindow)}, but a request reported ${k(reportedTokens ?? 0)} tokens, so the session uses the ${k(info.longContextWindow)}-context variant`;
    } else {
      windowBasis = `${info.label}: ${k(window)} (the ${k(info.longContextWindow)}-context variant, if chosen, is not recorded in the transcript)`;
    }
  }
  const lowered = modelDefaultWindow(info.id);
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
  // 2.1.33x writes the context it used to put in the system prompt as attachments.
  if (/^instructions\b/.test(l)) return 'memory files';
  if (/^(environment|session context|date|model|auto mode|remote session change|total tokens reminder)$/.test(l)) return 'environment, git status, date';
  return null;
}

export const CLAUDE_REMAINDER_NOTE =
  "Claude Code's system prompt and its tool definitions (before 2.1.33x also CLAUDE.md, the environment and the date): sent first in every request, never written to the transcript.";
