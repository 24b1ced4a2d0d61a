import { isObject, num, type Json, type Usage } from '@glassbox/core';

/** The token counts Gemini CLI records on a reply (`tokens`, from the response's usageMetadata). */
export interface GeminiTokens {
  /** promptTokenCount: the whole prompt, cached tokens included. */
  input: number;
  /** candidatesTokenCount. */
  output: number;
  /** cachedContentTokenCount: the part of the prompt read from the (implicit) cache. */
  cached: number;
  /** thoughtsTokenCount: billed as output, not counted in `output`. */
  thoughts: number;
  /** toolUsePromptTokenCount: prompt tokens of tool use, billed as input. */
  tool: number;
  total: number;
}

/** A reply's recorded `tokens`, or null when it has none (0.28 merges text-less replies, and errors have none). */
export function tokensOfReply(raw: Json | undefined): GeminiTokens | null {
  if (!isObject(raw)) return null;
  const input = num(raw['input']);
  const output = num(raw['output']);
  if (input === undefined || output === undefined) return null;
  const thoughts = num(raw['thoughts']) ?? 0;
  const tool = num(raw['tool']) ?? 0;
  return { input, output, cached: num(raw['cached']) ?? 0, thoughts, tool, total: num(raw['total']) ?? input + output + thoughts + tool };
}

/**
 * Neutral usage: Gemini counts cached tokens inside the prompt, so the uncached input is prompt − cached
 * (plus tool-use prompt tokens); implicit caching has no write price; thoughts are billed as output.
 */
export function neutralUsage(t: GeminiTokens): Usage {
  const cached = Math.min(t.cached, t.input);
  return {
    inputTokens: t.input - cached + t.tool,
    outputTokens: t.output + t.thoughts,
    cacheCreationTokens: 0,
    cacheReadTokens: cached,
    cacheCreation5mTokens: 0,
    cacheCreation1hTokens: 0,
  };
}
