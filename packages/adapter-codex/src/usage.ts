import type { Usage } from '@glassbox/core';
import { isObject, num, type JsonObject } from './json';

/** One model request's usage, as Codex's `token_count` event reports it (`info.last_token_usage`). */
export interface CodexRequestUsage {
  /** 1-based line of the token_count record. */
  line: number;
  timestamp?: string;
  model: string;
  /** All input tokens, cached ones included (OpenAI's convention). */
  input: number;
  cachedInput: number;
  /** All output tokens, reasoning included. */
  output: number;
  reasoningOutput: number;
  total: number;
}

export interface TokenCount {
  last: Omit<CodexRequestUsage, 'line' | 'model' | 'timestamp'>;
  /** `total_token_usage.total_tokens`: repeats when Codex writes the same count twice. */
  cumulativeTotal: number | null;
  contextWindow: number | null;
}

function usageFields(raw: JsonObject): Omit<CodexRequestUsage, 'line' | 'model' | 'timestamp'> {
  const input = num(raw['input_tokens']) ?? 0;
  const output = num(raw['output_tokens']) ?? 0;
  return {
    input,
    cachedInput: num(raw['cached_input_tokens']) ?? 0,
    output,
    reasoningOutput: num(raw['reasoning_output_tokens']) ?? 0,
    total: num(raw['total_tokens']) ?? input + output,
  };
}

/** The usage of a `token_count` event payload, or null when it carries none (`info: null`). */
export function parseTokenCount(payload: JsonObject): TokenCount | null {
  const info = payload['info'];
  if (!isObject(info)) return null;
  const last = info['last_token_usage'];
  if (!isObject(last)) return null;
  const total = info['total_token_usage'];
  return {
    last: usageFields(last),
    cumulativeTotal: isObject(total) ? (num(total['total_tokens']) ?? null) : null,
    contextWindow: num(info['model_context_window']) ?? null,
  };
}

/**
 * The neutral usage of one request: OpenAI counts cached tokens inside the input, so the uncached
 * part is input − cached; there are no cache writes to pay for; output includes reasoning.
 */
export function neutralUsage(u: Pick<CodexRequestUsage, 'input' | 'cachedInput' | 'output'>): Usage {
  const cached = Math.min(u.cachedInput, u.input);
  return {
    inputTokens: u.input - cached,
    outputTokens: u.output,
    cacheCreationTokens: 0,
    cacheReadTokens: cached,
    cacheCreation5mTokens: 0,
    cacheCreation1hTokens: 0,
  };
}
