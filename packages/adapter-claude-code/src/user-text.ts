// How Claude Code's user records read: the person's prompt, or text the client wrote itself. The parser
// and the list's summary both decide with these, so they count the same prompts.
import { isObject, str, type JsonObject } from './record-types';

export type UserRecordKind = 'prompt' | 'meta' | 'tool-results' | 'compact-summary';

/**
 * What a `user` record is: the compaction summary, text the client wrote (`isMeta`, command output
 * echoes, interruptions), tool results, or a prompt the person gave, with its text (null when the
 * prompt holds no text block, e.g. only an image).
 */
export function userRecordKind(r: JsonObject): { kind: UserRecordKind; promptText: string | null; label?: string } {
  if (r['isCompactSummary'] === true) return { kind: 'compact-summary', promptText: null };
  // 2.1.33x: a background task's answer (Agent runs in the background by default) arrives as a user
  // message the client writes, `<task-notification>…`; it is sent, but it is not the person's prompt.
  const origin = isObject(r['origin']) ? str(r['origin']['kind']) : undefined;
  if (origin === 'task-notification') return { kind: 'meta', promptText: null, label: 'task notification' };
  if (r['promptSource'] === 'system') return { kind: 'meta', promptText: null, label: 'client message' };
  const message = r['message'];
  const content = isObject(message) ? message['content'] : undefined;
  let text: string | null = null;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block['type'] === 'tool_result') return { kind: 'tool-results', promptText: null };
      if (block['type'] === 'text' && text === null) text = str(block['text']) ?? '';
    }
  }
  if (r['isMeta'] === true) return { kind: 'meta', promptText: null };
  if (text !== null && isHarnessText(text)) return { kind: 'meta', promptText: null };
  return { kind: 'prompt', promptText: text };
}

/**
 * Text the harness writes into user records: command output echoes, caveats, interruptions. A slash
 * command or `!` shell line the person typed (`<command-name>`, `<bash-input>`) is their prompt.
 */
export function isHarnessText(text: string): boolean {
  return (
    text.startsWith('<local-command-') ||
    text.startsWith('<bash-stdout>') ||
    text.startsWith('<bash-stderr>') ||
    text.startsWith('[Request interrupted')
  );
}

/** `<command-name>/x</command-name><command-args>y</command-args>` reads as `/x y`. */
export function displayPrompt(text: string): string {
  if (!text.startsWith('<command-')) return text;
  const name = /<command-name>([^<]*)<\/command-name>/.exec(text)?.[1]?.trim();
  const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim();
  if (!name) return text;
  const slash = name.startsWith('/') ? name : `/${name}`;
  return args ? `${slash} ${args}` : slash;
}

