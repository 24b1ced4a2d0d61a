// The text the model reads, read back from one transcript line: what compaction x-rays and searches
// compare with a summary. The parser keeps only sizes and previews (memory follows the window), so the
// text comes from the line on demand.
import { isObject, str, type Json, type JsonObject } from './record-types';
import { renderAttachmentRecord } from './parse/attachments';
import { versionRecordsRenderings } from './parse/recorded-rendering';

/** The client's opening of a compaction summary, in 1.x and 2.x wording (docs/claude-code/transcript-format.md). */
const SUMMARY_PREAMBLE = 'This session is being continued from a previous conversation';
/** The closing instructions 2.x appends after the model's summary. */
const SUMMARY_TRAILER = '\n\nIf you need specific details from before compaction';

/**
 * The text of one content block as the model reads it: a prompt, a reply, reasoning, a tool result's
 * text, a tool call's input (one `field: value` line per field), an attachment as the client renders it.
 * Null when the line does not hold a record.
 */
export function recordBlockText(line: string, blockIndex: number, cwd: string | null): string | null {
  const r = parse(line);
  if (!r) return null;
  const att = r['attachment'];
  if (isObject(att)) {
    const rendered = renderAttachmentRecord(r, cwd, versionRecordsRenderings(str(r['version']), new Set()));
    return 'text' in rendered ? rendered.text : '';
  }
  const message = r['message'];
  const content = isObject(message) ? message['content'] : undefined;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const block = content[blockIndex];
    return block === undefined ? null : blockText(block);
  }
  const own = str(r['content']);
  return own ?? null;
}

/** The summary the model wrote, from the summary record's line: the client's preamble and closing instructions removed. */
export function compactionSummaryText(line: string): string | null {
  const text = recordBlockText(line, 0, null);
  if (text === null) return null;
  let body = text;
  if (body.startsWith(SUMMARY_PREAMBLE)) {
    // 2.x: "…\n\nSummary:\n<summary>"; 1.x: "…summarized below:\n<summary>".
    const at = body.indexOf('Summary:\n');
    const colon = body.indexOf(':\n');
    body = at >= 0 ? body.slice(at + 'Summary:\n'.length) : colon >= 0 ? body.slice(colon + 2) : body;
  }
  const end = body.indexOf(SUMMARY_TRAILER);
  return end >= 0 ? body.slice(0, end) : body;
}

function blockText(block: Json): string {
  if (typeof block === 'string') return block;
  if (!isObject(block)) return '';
  switch (block['type']) {
    case 'text':
      return str(block['text']) ?? '';
    case 'thinking':
      return str(block['thinking']) ?? '';
    case 'tool_use':
    case 'server_tool_use':
      return inputText(block['input'] ?? null);
    case 'tool_result': {
      const c = block['content'];
      if (typeof c === 'string') return c;
      if (Array.isArray(c)) return c.map((part) => (isObject(part) && part['type'] === 'text' ? (str(part['text']) ?? '') : '')).join('\n');
      return '';
    }
    default:
      return '';
  }
}

/** A tool call's input, one `field: value` line per field (strings as they are, other values as JSON). */
function inputText(input: Json): string {
  if (!isObject(input)) return JSON.stringify(input);
  return Object.entries(input)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

function parse(line: string): JsonObject | null {
  try {
    const r = JSON.parse(line) as unknown;
    return isObject(r) ? r : null;
  } catch {
    return null;
  }
}
