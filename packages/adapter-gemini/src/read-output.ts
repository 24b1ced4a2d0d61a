/** What a read_file result captured of the file. */
export interface ReadCapture {
  startLine: number;
  numLines: number;
  totalLines: number | null;
  full: boolean;
  /** The file text the read returned (without the client's notice), lines joined by "\n". */
  text: string;
}

/**
 * read_file answers a whole file with its text, unchanged. A part of a file (asked for with
 * start_line/end_line, or offset/limit up to 0.28, or cut by the client's line cap) comes after a
 * notice that ends with "--- FILE CONTENT (truncated) ---" and says which lines it shows:
 * "Status: Showing lines 1-5 of 12 total lines." The captured lines carry no trailing newline.
 * Anything else (an image, a PDF, a binary notice) is not a text capture: null.
 */
export function readCapture(output: string): ReadCapture | null {
  const marker = '--- FILE CONTENT (truncated) ---\n';
  if (output.startsWith('\nIMPORTANT: The file content has been truncated.')) {
    const m = /Showing lines (\d+)-(\d+) of (\d+) total lines/.exec(output);
    const at = output.indexOf(marker);
    if (!m || at < 0) return null;
    const start = Number(m[1]);
    const end = Number(m[2]);
    return { startLine: start, numLines: Math.max(0, end - start + 1), totalLines: Number(m[3]), full: false, text: output.slice(at + marker.length) };
  }
  if (/^Cannot display content of|^Skipped|^Binary file/.test(output)) return null;
  const lines = output === '' ? 0 : output.split('\n').length - (output.endsWith('\n') ? 1 : 0);
  return { startLine: 1, numLines: lines, totalLines: lines, full: true, text: output };
}
