import { isObject, str } from '../record-types';
import { renderAttachmentRecord } from './attachments';
import { versionRecordsRenderings } from './recorded-rendering';

/**
 * An attachment record as the model reads it (the client's rendering, see attachments.ts), for the
 * window's inspector and conversation; a type the client leaves out says so. Null for other records.
 */
export function attachmentText(record: unknown, cwd: string | null): string | null {
  if (!isObject(record) || !isObject(record['attachment'])) return null;
  const r = renderAttachmentRecord(record, cwd, versionRecordsRenderings(str(record['version']), new Set()));
  return 'text' in r ? r.text : `(not sent to the model: ${r.notSent})`;
}
