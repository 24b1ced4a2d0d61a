import type { Problem, SessionStats } from '@glassbox/core';
import type { CallLinker } from './call-linker';
import type { Generation } from './generation';

interface ParseEnd {
  path: string;
  stats: SessionStats;
  generation: Generation | null;
  /** The file was refused at its first record (its problem says why): nothing more is said of it. */
  refused: boolean;
  calls: CallLinker;
}

/**
 * What only the end of a parse can tell: an empty file or one without a Codex record, the record
 * types no rule reads, and calls and outputs left without their other half (Codex repairs both
 * when it resumes).
 */
export function closingProblems({ path, stats, generation, refused, calls }: ParseEnd): Problem[] {
  const out: Problem[] = [];
  const at = (code: Problem['code'], line: number, message: string) => out.push({ code, severity: 'warning', file: path, line, message: `${path}:${line}: ${message}` });
  if (!refused && stats.records === 0 && stats.invalidLines === 0) {
    out.push({ code: 'file_empty', severity: 'error', file: path, message: `${path}: the file is empty; there is no session to read` });
  } else if (!refused && generation === null) {
    out.push({ code: 'not_a_transcript', severity: 'error', file: path, line: 1, message: `${path}: no line holds a Codex record` });
  }
  for (const [type, count] of Object.entries(stats.unknownTypes)) {
    out.push({ code: 'unknown_record_type', severity: 'info', file: path, message: `${path}: ${count} record(s) of unknown type "${type}" were kept and not analysed` });
  }
  for (const [callId, pending] of calls.pendingOutputs) {
    at('orphan_tool_result', pending.node.line, `the output of ${callId} answers no call in the file (Codex drops it when it resumes)`);
  }
  for (const call of calls.toolCalls.values()) {
    if (call.resultUuid === undefined) at('unanswered_tool_use', call.useLine, `call ${call.id} (${call.name}) has no output (Codex answers it with "aborted" when it resumes)`);
  }
  return out;
}
