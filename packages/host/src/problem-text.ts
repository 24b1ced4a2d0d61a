import { basename } from 'node:path';
import type { Problem, ProblemCode } from '@glassbox/core';

/** What each problem means, in words that hold nothing read from the file. */
const DESCRIPTION: Record<ProblemCode, string> = {
  file_missing: 'the file does not exist',
  file_unreadable: 'the file cannot be read',
  file_empty: 'the file is empty',
  not_a_transcript: 'the file is not a session transcript of a known agent',
  document_incomplete: 'the session document is being rewritten by its client (busy): open it again in a moment',
  invalid_json: 'invalid JSON; the line was skipped',
  invalid_record: 'a record of an unexpected shape was skipped',
  torn_last_line: 'the last line is incomplete (still being written?) and was not read',
  unknown_record_type: 'records of an unknown type were kept and not analysed',
  dangling_parent: 'a record names a parent that is not in the file',
  orphan_tool_result: 'a tool result answers a call that no record in the file made',
  unanswered_tool_use: 'a tool call has no result',
  repo_missing: 'the working directory does not exist on this machine',
  unknown_model_price: 'a model has no known price',
  subagent_unreadable: 'a subagent file cannot be read',
  compaction_chain_broken: 'the conversation a compaction replaced is not in the file',
  compaction_leaf_chosen: 'the record a compaction names as the end of what it replaced is missing: the window before it is rebuilt from the last record before it',
  pre_tokens_differ: 'the reported size before a compaction differs from the size the client wrote with it',
  invalid_usage: 'a reply reports a token count that is not a whole number of 0 or more (counted as 0)',
};

/**
 * A problem as it crosses the API: its file's name and line, never text read from the file. A parser
 * message can quote the line it failed on (JSON.parse does), which would turn "open this file" into
 * "show me the start of any file".
 */
export function positionsOnly(p: Problem): Problem {
  const where = [p.file ? basename(p.file) : null, p.line !== undefined ? `line ${p.line}` : null].filter(Boolean).join(', ');
  const out: Problem = { code: p.code, severity: p.severity, message: `${where ? `${where}: ` : ''}${DESCRIPTION[p.code] ?? 'a problem was found'}` };
  if (p.file !== undefined) out.file = p.file;
  if (p.line !== undefined) out.line = p.line;
  return out;
}
