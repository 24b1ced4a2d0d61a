import { isObject, num, parseObject, str } from './json';

/**
 * A tool output as Codex wrote it for the model, split into the per-call header and the body.
 * Codex has used three shapes (docs/codex/format.md, "Tool outputs"):
 * - unified exec (`exec_command`, 2026): `[Command: …\n]Chunk ID: x\nWall time: 0.0000 seconds\n`
 *   `Process exited with code N | Process running with session ID N\n[Original token count: N\n]Output:\n<body>`;
 * - freeform (`shell_command`, apply_patch): `Exit code: N\nWall time: N seconds\n[Total output lines: N\n]Output:\n<body>`;
 * - structured (`shell`, apply_patch, 2025): the JSON `{"output": "<body>", "metadata": {"exit_code": N, …}}`.
 */
export interface ShellOutput {
  shape: 'unified-exec' | 'freeform' | 'structured' | 'plain';
  /** The exit code, when the process ended and the header says so. */
  exitCode: number | null;
  /** The process was still running when the output was taken (unified exec). */
  running: boolean;
  /** Codex shortened the output when it recorded it: the body is not what the command printed. */
  truncated: boolean;
  /** What follows the header: the command's output as the model saw it. */
  body: string;
}

const OUTPUT_MARK = '\nOutput:\n';
const UNIFIED_HEADER = /^(?:Command: [^\n]*\n)?Chunk ID: [^\n]*\nWall time: [0-9.]+ seconds\n/;
const FREEFORM_HEADER = /^Exit code: (-?\d+)\nWall time: [0-9.]+ seconds\n/;

export function parseShellOutput(text: string): ShellOutput {
  if (UNIFIED_HEADER.test(text)) return unified(text);
  const ff = FREEFORM_HEADER.exec(text);
  if (ff) return freeform(text, Number(ff[1]));
  if (text.startsWith('{')) {
    const o = parseObject(text);
    const meta = o ? o['metadata'] : undefined;
    const body = o ? str(o['output']) : undefined;
    if (body !== undefined && isObject(meta)) {
      const exit = num(meta['exit_code']) ?? num(meta['shell_exit_code']) ?? null;
      return { shape: 'structured', exitCode: exit, running: false, truncated: bodyTruncated(body), body };
    }
  }
  return { shape: 'plain', exitCode: null, running: false, truncated: bodyTruncated(text), body: text };
}

function unified(text: string): ShellOutput {
  const at = text.indexOf(OUTPUT_MARK);
  if (at < 0) return { shape: 'plain', exitCode: null, running: false, truncated: bodyTruncated(text), body: text };
  const header = text.slice(0, at);
  const body = text.slice(at + OUTPUT_MARK.length);
  const exited = /\nProcess exited with code (-?\d+)(?:\n|$)/.exec(header);
  const running = /\nProcess running with session ID /.test(header);
  return { shape: 'unified-exec', exitCode: exited ? Number(exited[1]) : null, running, truncated: bodyTruncated(body), body };
}

function freeform(text: string, exitCode: number): ShellOutput {
  const at = text.indexOf(OUTPUT_MARK);
  const header = at >= 0 ? text.slice(0, at) : text;
  const body = at >= 0 ? text.slice(at + OUTPUT_MARK.length) : '';
  const truncated = /\nTotal output lines: \d+$/.test(header) || bodyTruncated(body);
  return { shape: 'freeform', exitCode, running: false, truncated, body };
}

/**
 * Codex cuts long outputs when it records them: the kept head and tail are joined by a
 * `…N tokens truncated…` (or `…N chars truncated…`) marker, and a warning or a line count is put first.
 */
function bodyTruncated(body: string): boolean {
  return (
    body.startsWith('Warning: truncated output') ||
    /^Total output lines: \d+\n\n/.test(body) ||
    // The plain searches first: the patterns then run only on the rare bodies that may match.
    (body.includes(' truncated…') && /…\d+ (?:tokens|chars) truncated…/.test(body)) ||
    (body.includes('[... omitted ') && /\[\.\.\. omitted \d+ of \d+ lines \.\.\.\]/.test(body))
  );
}
