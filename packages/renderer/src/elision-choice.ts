import { DEFAULT_ELIDE_KEEP, DEFAULT_ELIDE_OVER } from '@glassbox/core';
import type { ElideArgs } from '@glassbox/contract';

/** Elision's thresholds as typed (text, so a half-typed number is not forced), on or off. */
export interface ElisionChoice {
  on: boolean;
  overTokens: string;
  keepChars: string;
  keepLines: string;
}

export const ELISION_OFF: ElisionChoice = { on: false, overTokens: String(DEFAULT_ELIDE_OVER), keepChars: String(DEFAULT_ELIDE_KEEP.chars), keepLines: String(DEFAULT_ELIDE_KEEP.lines) };

const whole = (text: string, fallback: number, min: number, max: number): number => {
  const n = Math.round(Number(text));
  return text.trim() === '' || !Number.isFinite(n) ? fallback : Math.max(min, Math.min(max, n));
};

/** The thresholds to send (the defaults for what is left empty), within what the host accepts. */
export function elideArgs(c: ElisionChoice): ElideArgs {
  return {
    overTokens: whole(c.overTokens, DEFAULT_ELIDE_OVER, 1, 10_000_000),
    keepChars: whole(c.keepChars, DEFAULT_ELIDE_KEEP.chars, 0, 1_000_000),
    keepLines: whole(c.keepLines, DEFAULT_ELIDE_KEEP.lines, 0, 100_000),
  };
}
