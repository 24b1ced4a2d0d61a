import type { ContextLimits } from '@glassbox/core';

/** gemini-cli's tokenLimit(): every Gemini model it names has a 1,048,576-token window (0.28–0.61). */
const GEMINI_WINDOW = 1_048_576;
/** Its DEFAULT_COMPRESSION_TOKEN_THRESHOLD: it compresses once a reply reported half the window. */
const COMPRESSION_FRACTION = 0.5;

export function geminiContextLimits(model: string | null): ContextLimits | null {
  if (!model || !/^gemini-/.test(model)) return null;
  return {
    window: GEMINI_WINDOW,
    windowBasis: `${model}: 1,048,576 tokens (Gemini CLI's tokenLimit for its Gemini models)`,
    autoCompact: {
      at: Math.floor(GEMINI_WINDOW * COMPRESSION_FRACTION),
      proactive: true,
      basis: 'Gemini CLI 0.28–0.61 compresses before a request once the last reply reported more than half the window (model.compressionThreshold changes the fraction); it can only cut at an earlier prompt, and only 0.39+ keeps the result in the session file',
    },
  };
}

export const GEMINI_REMAINDER_NOTE =
  'The rest is Gemini CLI’s system instruction, its tool declarations and the session context it rebuilds at each start (date, folders, a listing of the project), which the session file does not hold.';
