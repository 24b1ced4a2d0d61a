/**
 * Read results are sent as numbered lines: `12\tcode` (2.x) or `    12→code` (1.x, padded, arrow).
 * This recovers the raw text and range from them when the structured mirror is missing.
 */
export interface NumberedText {
  startLine: number;
  lines: string[];
}

const NUMBERED = /^\s*(\d+)(?:\t|\u2192)(.*)$/;

export function parseNumberedText(text: string): NumberedText | null {
  let body = text;
  // A token-capped read starts with a reminder; the numbered lines follow a blank line.
  if (body.startsWith('<system-reminder>')) {
    const end = body.indexOf('</system-reminder>');
    if (end < 0) return null;
    body = body.slice(end + '</system-reminder>'.length).replace(/^\n+/, '');
  }
  const rows = body.split('\n');
  const lines: string[] = [];
  let start = -1;
  let expected = -1;
  for (const row of rows) {
    const m = NUMBERED.exec(row);
    if (!m) break;
    const n = Number(m[1]);
    if (start < 0) {
      start = n;
      expected = n;
    }
    if (n !== expected) break;
    lines.push(m[2] ?? '');
    expected++;
  }
  if (start < 0 || lines.length === 0) return null;
  return { startLine: start, lines };
}
