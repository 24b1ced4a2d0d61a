import { tokenCount, type Usage } from '@glassbox/core';
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

/** A count that is not a whole number ≥ 0 is taken as 0 and `bad.invalid` set (core's tokenCount): no cost is ever negative. */
function usageFields(raw: JsonObject, bad: { invalid: boolean }): Omit<CodexRequestUsage, 'line' | 'model' | 'timestamp'> {
  const input = tokenCount(raw['input_tokens'], bad);
  const output = tokenCount(raw['output_tokens'], bad);
  return {
    input,
    cachedInput: tokenCount(raw['cached_input_tokens'], bad),
    output,
    reasoningOutput: tokenCount(raw['reasoning_output_tokens'], bad),
    total: raw['total_tokens'] === undefined ? input + output : tokenCount(raw['total_tokens'], bad),
  };
}

/** The usage of a `token_count` event payload, or null when it carries none (`info: null`). */
export function parseTokenCount(payload: JsonObject, bad: { invalid: boolean } = { invalid: false }): TokenCount | null {
  const info = payload['info'];
  if (!isObject(info)) return null;
  const last = info['last_token_usage'];
  if (!isObject(last)) return null;
  const total = info['total_token_usage'];
  return {
    last: usageFields(last, bad),
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
