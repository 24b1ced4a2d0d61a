import type { AgentFormat } from '@glassbox/core';
import { CLAUDE_REMAINDER_NOTE, claudeContextLimits, claudeSetupPart } from './context-limits';
import { attachmentText } from './parse/attachment-text';
import { attachmentView } from './parse/attachment-view';
import { createForkBuilder, createForkValidator, parseLines } from './fork';
import { CLAUDE_CODE, CLAUDE_CODE_LABEL } from './identity';
import { TranscriptParser } from './parser';
import { CLAUDE_PRICES } from './prices';
import { recogniseClaudeCode } from './recognise';
import { resumeCommand, resumeInstruction } from './resume';
import { ClaudeSummarizer } from './summary/summarizer';
import { readTail } from './summary/tail';
import { compactionSummaryText, recordBlockText } from './record-text';

/** Claude Code's transcript format, as the rest of Glassbox sees it (see AgentFormat in core). */
export const claudeCodeFormat: AgentFormat = {
  id: CLAUDE_CODE,
  label: CLAUDE_CODE_LABEL,
  // One JSONL file per session, only ever appended; `<id>/` beside it holds its subagents and large outputs.
  source: { units: ['jsonl-log'], extensions: ['.jsonl'], appendOnly: true, sideFolder: true },
  recognise: recogniseClaudeCode,
  createParser: (options) => new TranscriptParser(options),
  parseLines: (lines, options) => parseLines(lines, options.path, options.fallbackId),
  createSummarizer: (state, subagentFile) => new ClaudeSummarizer(state, subagentFile),
  readTail,
  blockText: recordBlockText,
  compactionSummary: compactionSummaryText,
  prices: CLAUDE_PRICES,
  createForkBuilder,
  createForkValidator,
  resumeCommand,
  // Claude Code names every session by a random UUID.
  sessionIdPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  contextLimits: ({ model, reportedTokens }) => claudeContextLimits(model, reportedTokens),
  setupPart: claudeSetupPart,
  remainderNote: CLAUDE_REMAINDER_NOTE,
  recordText: attachmentText,
  attachmentView,
  resumeInstruction,
};
