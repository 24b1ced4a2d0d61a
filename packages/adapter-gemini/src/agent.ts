import type { AgentFormat } from '@glassbox/core';
import { GEMINI_REMAINDER_NOTE, geminiContextLimits } from './context-limits';
import { createForkBuilder, createForkValidator } from './fork';
import { GEMINI, GEMINI_LABEL } from './identity';
import { parseChatLines } from './parse-lines';
import { GeminiParser } from './parser';
import { GEMINI_PRICES } from './prices';
import { recogniseGemini } from './recognise';
import { resumeCommand, resumeInstruction } from './resume';
import { GeminiSummarizer, readTail } from './summary';
import { geminiCompactionSummary } from './snapshot-text';

/**
 * Gemini CLI's chat format, as the rest of Glassbox sees it (AgentFormat in core). Its sessions are
 * of two units — the JSONL log of 0.39+ and the JSON document of earlier versions — and neither only
 * grows by appends (a document is rewritten whole; a log's full-replace records rewrite the history),
 * so the store never resumes a saved summary state (it re-reads a changed chat whole, or feeds a log's
 * summarizer kept in memory only what was appended: `GeminiSummarizer.snapshot`). Its side files are per session id elsewhere in the
 * project folder (`chats/<id>/`, `tool-outputs/session-<id>/`), not a folder named like the file.
 */
export const geminiFormat: AgentFormat = {
  id: GEMINI,
  label: GEMINI_LABEL,
  source: { units: ['jsonl-log', 'json-document'], extensions: ['.jsonl', '.json'], appendOnly: false, sideFolder: false },
  recognise: recogniseGemini,
  createParser: (options) => new GeminiParser(options),
  parseLines: (lines, options) => parseChatLines(lines, options),
  createSummarizer: (state, subagentFile) => new GeminiSummarizer(state, subagentFile),
  readTail,
  // The `<state_snapshot>` of a 0.39+ compression, for the compaction x-ray.
  compactionSummary: geminiCompactionSummary,
  prices: GEMINI_PRICES,
  createForkBuilder,
  createForkValidator,
  resumeCommand,
  resumeInstruction,
  // A main chat's id is a random UUID; a 0.38 subagent chat's a short random id.
  sessionIdPattern: /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9]{6})$/i,
  contextLimits: ({ model }) => geminiContextLimits(model),
  remainderNote: GEMINI_REMAINDER_NOTE,
};
