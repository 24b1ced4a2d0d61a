import { isObject, str, type JsonObject } from '../record-types';
import { utf8Bytes } from '../hash';

/**
 * The text a 2.1.33x client recorded with an attachment (`rendered`), as it sends it: each entry is one
 * message (a string, or text blocks). A system message (`renderedRole: "system"`, on models that take
 * them) goes without the `<system-reminder>` wrapper the recorded text carries; a user message keeps
 * it. Sizes follow (docs/claude-code/what-the-client-sends.md); null when the record has no valid
 * rendering (the client then renders the attachment by its type, as older versions did).
 */
export function recordedRendering(record: JsonObject): { text: string; bytes: number } | null {
  const rendered = record['rendered'];
  if (!Array.isArray(rendered) || rendered.length === 0) return null;
  const system = record['renderedRole'] === 'system';
  const texts: string[] = [];
  for (const entry of rendered) {
    if (!isObject(entry)) return null;
    const content = entry['content'];
    if (typeof content === 'string' && content.length > 0) texts.push(content);
    else if (Array.isArray(content) && content.length > 0) {
      for (const b of content) {
        const t = isObject(b) && b['type'] === 'text' ? str(b['text']) : undefined;
        if (!t) return null;
        texts.push(t);
      }
    } else return null;
  }
  const sent = system ? texts.map(unwrap) : texts;
  let bytes = 0;
  for (const t of sent) bytes += utf8Bytes(t);
  return { text: sent.join('\n\n'), bytes };
}

const WRAPPED = /^<system-reminder>\n([\s\S]*)\n<\/system-reminder>$/;

/** The text inside the client's `<system-reminder>` wrapper (what a system message carries). */
function unwrap(text: string): string {
  return WRAPPED.exec(text)?.[1] ?? text;
}

/**
 * Whether records of this client version write their renderings, so that an attachment written
 * without one rendered to nothing: every version from 2.1.332 on (the oldest seen writing them), or a
 * version this file showed doing it.
 */
export function versionRecordsRenderings(version: string | undefined, seen: ReadonlySet<string>): boolean {
  if (!version) return false;
  if (seen.has(version)) return true;
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return major > 2 || (major === 2 && (minor > 1 || (minor === 1 && patch >= 332)));
}

/** Whether a record carries a rendering of the client's own (so its version records them). */
export function hasRecordedRendering(record: JsonObject): boolean {
  return Array.isArray(record['rendered']) || typeof record['renderedRole'] === 'string';
}
