import { isObject } from '../record-types';
import { renderAttachment } from './attachments';

/**
 * An attachment record as the model reads it (the client's rendering, see attachments.ts), for the
 * window's inspector and conversation; a type the client leaves out says so. Null for other records.
 */
export function attachmentText(record: unknown, cwd: string | null): string | null {
  if (!isObject(record) || !isObject(record['attachment'])) return null;
  const r = renderAttachment(record['attachment'], cwd);
  return 'text' in r ? r.text : `(not sent to the model: ${r.notSent})`;
}
