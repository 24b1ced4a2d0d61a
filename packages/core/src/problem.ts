/** Something wrong or unusual in the input. Problems are reported, never thrown. */
export type ProblemSeverity = 'error' | 'warning' | 'info';

export type ProblemCode =
  | 'file_missing'
  | 'file_unreadable'
  | 'file_empty'
  | 'not_a_transcript'
  /** A session rewritten whole in place (a JSON document) met mid-write: busy, read it again in a moment. */
  | 'document_incomplete'
  | 'invalid_json'
  | 'invalid_record'
  | 'torn_last_line'
  | 'unknown_record_type'
  | 'dangling_parent'
  | 'orphan_tool_result'
  | 'unanswered_tool_use'
  | 'repo_missing'
  | 'unknown_model_price'
  | 'subagent_unreadable'
  | 'compaction_chain_broken'
  | 'compaction_leaf_chosen'
  | 'pre_tokens_differ'
  | 'invalid_usage';

export interface Problem {
  code: ProblemCode;
  severity: ProblemSeverity;
  message: string;
  /** The file the problem is in, when it concerns one. */
  file?: string;
  /** 1-based line number in that file, when it concerns one line. */
  line?: number;
}

/** Problems with this severity make a transcript unusable as a whole. */
export function isFatal(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error' && FATAL_CODES.has(p.code));
}

const FATAL_CODES: ReadonlySet<ProblemCode> = new Set([
  'file_missing',
  'file_unreadable',
  'file_empty',
  'not_a_transcript',
  'document_incomplete',
]);
