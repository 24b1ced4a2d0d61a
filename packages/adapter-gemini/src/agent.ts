import type { AgentFormat } from '@glassbox/core';
import { GEMINI_REMAINDER_NOTE, geminiContextLimits } from './context-limits';
import { GEMINI, GEMINI_LABEL } from './identity';
import { parseChatLines } from './parse-lines';
import { GeminiParser } from './parser';
import { GEMINI_PRICES } from './prices';
import { recogniseGemini } from './recognise';
import { resumeCommand, resumeInstruction } from './resume';

/**
 * What of the agent seam (`AgentFormat` in core) Gemini CLI's adapter provides today: recognition,
 * the parse into the neutral session, prices, context limits and the resume instruction. The list
 * summary, the tail reader and the fork builder and validator wait for the seam that is being
 * reshaped for whole-document and multi-file sessions; SEAM.md says what they need from it.
 */
export type GeminiFormat = Pick<
  AgentFormat,
  'id' | 'label' | 'recognise' | 'createParser' | 'parseLines' | 'prices' | 'resumeCommand' | 'resumeInstruction' | 'contextLimits' | 'remainderNote'
>;

export const geminiFormat: GeminiFormat = {
  id: GEMINI,
  label: GEMINI_LABEL,
  recognise: recogniseGemini,
  createParser: (options) => new GeminiParser(options),
  parseLines: (lines, options) => parseChatLines(lines, options),
  prices: GEMINI_PRICES,
  resumeCommand,
  resumeInstruction,
  contextLimits: ({ model }) => geminiContextLimits(model),
  remainderNote: GEMINI_REMAINDER_NOTE,
};
