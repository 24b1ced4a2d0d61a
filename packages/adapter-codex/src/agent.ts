import type { AgentFormat } from '@glassbox/core';
import { createForkBuilder, createForkValidator, resumeCommand } from './fork';
import { CODEX_REMAINDER_NOTE, codexContextLimits } from './context-limits';
import { CODEX, CODEX_LABEL } from './identity';
import { RolloutParser } from './parser';
import { parseRolloutLines } from './parse-lines';
import { CODEX_PRICES } from './prices';
import { recogniseCodex } from './recognise';
import type { CodexSession } from './session-types';
import { CodexSummarizer } from './summary/summarizer';
import { readTail } from './summary/tail';
import { rolloutBlockText } from './record-text';
import { codexCompactionSummary } from './compaction-events';

/** Codex CLI's rollout format, as the rest of Glassbox sees it (see AgentFormat in core). */
export const codexFormat: AgentFormat = {
  id: CODEX,
  label: CODEX_LABEL,
  // One JSONL file per session, only ever appended; Codex keeps no folder beside it.
  source: { units: ['jsonl-log'], extensions: ['.jsonl'], appendOnly: true, sideFolder: false },
  recognise: recogniseCodex,
  createParser: (options) => new RolloutParser(options),
  parseLines: (lines, options) => parseRolloutLines(lines, options),
  createSummarizer: (state, subagentFile) => new CodexSummarizer(state, subagentFile),
  readTail,
  // Read back for the conversation, its export and the compaction x-ray's search (the parser keeps previews).
  blockText: (line, blockIndex, _cwd, uuid) => rolloutBlockText(line, blockIndex, uuid),
  // The summary of a `compacted` record, for the compaction x-ray (compaction-events.ts).
  compactionSummary: codexCompactionSummary,
  prices: CODEX_PRICES,
  createForkBuilder,
  createForkValidator,
  resumeCommand,
  // Codex names its threads by UUIDs (version 7 today).
  sessionIdPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  contextLimits: ({ model, session }) => codexContextLimits(model, (session as Partial<CodexSession>).reported?.contextWindow ?? null),
  remainderNote: CODEX_REMAINDER_NOTE,
};
