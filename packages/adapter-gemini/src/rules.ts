/**
 * Which of the client's resume rules apply to a file, from what the file is: the generations differ in
 * what they send back of a session (docs/gemini/format.md, "What the client sends on resume").
 */
export type Generation =
  /** 0.39 and later: the JSONL log; thoughts are never sent back, and compression is kept. */
  | 'log'
  /** 0.29–0.38: a JSON document with a `kind` field; thoughts are sent back; compression is not kept. */
  | 'document'
  /** Up to 0.28: a JSON document without `kind`, in the hashed project folder; no thoughts are rebuilt. */
  | 'document-legacy';

export interface ResumeRules {
  /** The client puts a reply's recorded thoughts back into the history it sends. */
  thoughtsSent: boolean;
  /** A compression the client made survives in the file (the log's full-replace record). */
  compressionKept: boolean;
}

export function rulesOf(generation: Generation): ResumeRules {
  switch (generation) {
    case 'log':
      return { thoughtsSent: false, compressionKept: true };
    case 'document':
      return { thoughtsSent: true, compressionKept: false };
    case 'document-legacy':
      return { thoughtsSent: false, compressionKept: false };
  }
}

/** User text the client never sends back from a file (its `isIgnoredUserContent`): commands, help, empty. */
export function ignoredUserText(text: string): boolean {
  const t = text.trim();
  return t.length === 0 || t.startsWith('/') || t.startsWith('?') || t.startsWith('<hook_context>');
}

export const SESSION_CONTEXT_TAG = '<session_context>';
export const SNAPSHOT_TAG = '<state_snapshot>';
export const MASKED_TAG = '<tool_output_masked>';
