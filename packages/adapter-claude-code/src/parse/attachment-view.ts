import { isObject, str, type JsonObject } from '../record-types';
import { labelFor } from './attachment-labels';
import { renderAttachmentRecord } from './attachments';
import { versionRecordsRenderings } from './recorded-rendering';

/** Attachments that carry a file's text, which the client wraps in a simulated Read call. */
const FILE_TYPES = new Set(['file', 'new_file']);

/**
 * An attachment for the conversation view: what it is, and what it carries. A re-attached file is
 * its text (the client sends it as a made-up Read call and result, which is noise to a reader); any
 * other attachment is what the client sends, or why it sends nothing.
 */
export function attachmentView(record: unknown, cwd: string | null): { what: string; text: string } | null {
  if (!isObject(record) || !isObject(record['attachment'])) return null;
  const att = record['attachment'];
  const type = str(att['type']) ?? 'attachment';
  const label = labelFor(type, att, cwd);
  if (FILE_TYPES.has(type)) {
    const file = fileText(att);
    if (file !== null) return { what: `${label}, attached by the client${att['truncated'] === true ? ' (cut by the client)' : ''}`, text: file };
  }
  const rendered = renderAttachmentRecord(record, cwd, versionRecordsRenderings(str(record['version']), new Set()));
  if ('text' in rendered) return { what: `${label} (attachment)`, text: rendered.text };
  return { what: `${label} (attachment, not sent to the model)`, text: `Not sent: ${rendered.notSent}.` };
}

function fileText(att: JsonObject): string | null {
  const content = isObject(att['content']) ? att['content'] : null;
  const file = content && isObject(content['file']) ? content['file'] : null;
  return file && typeof file['content'] === 'string' ? file['content'] : null;
}
