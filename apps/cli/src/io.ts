import { chunked, writeJson } from './render/json-stream';
import { jsonSafe, terminalSafe } from './render/terminal-text';

/** Where a command writes, and the exit code it leaves: injectable so tests run commands in-process. */
export interface CliIO {
  /** A human-readable line. Through `guardedIO` (every command gets that) its controls are shown, never interpreted. */
  out: (text: string) => void;
  /** Raw output in pieces, for a large document written as it is made; without it, the pieces go to `out` whole. */
  write?: (piece: string) => void;
  err: (text: string) => void;
  /** The text exactly as given (no sanitiser): only a payload `show` prints on purpose; without it, `out` unguarded. */
  raw?: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Colour on when writing to a terminal and NO_COLOR is not set. */
  color: boolean;
  isTTY: boolean;
  exitCode: number;
}

export function processIO(): CliIO {
  const isTTY = process.stdout.isTTY === true;
  const noColor = 'NO_COLOR' in process.env && process.env['NO_COLOR'] !== undefined;
  const forced = process.env['FORCE_COLOR'] !== undefined && process.env['FORCE_COLOR'] !== '0';
  return {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    // Synchronous for files and pipes on POSIX: pieces are written in order as they come.
    write: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    raw: (t) => process.stdout.write(t),
    env: process.env,
    color: !noColor && (isTTY || forced),
    isTTY,
    exitCode: 0,
  };
}

/**
 * The io every command is given (main.ts): each human-readable line goes through the one output
 * sanitiser (render/terminal-text.ts), so text from a transcript can never drive the terminal; JSON
 * pieces are escaped JSON-wise (the same values, nothing raw a terminal could act on); `raw` stays
 * exact. The exit code is the given io's.
 */
export function guardedIO(io: CliIO): CliIO {
  const write = io.write;
  return {
    out: (t) => io.out(terminalSafe(t)),
    err: (t) => io.err(terminalSafe(t)),
    ...(write ? { write: (t: string) => write(jsonSafe(t)) } : {}),
    raw: io.raw ?? io.out,
    env: io.env,
    color: io.color,
    isTTY: io.isTTY,
    get exitCode() {
      return io.exitCode;
    },
    set exitCode(code: number) {
      io.exitCode = code;
    },
  };
}

/**
 * Prints a JSON document (as `JSON.stringify(value, null, 2)` would, with the characters a terminal
 * could act on as `\u` escapes) without making it one string. Every `--json` goes through here.
 */
export function outJson(io: CliIO, value: unknown): void {
  if (!io.write) {
    // Escaped, the document holds nothing the line sanitiser changes: it passes through `out` exact.
    io.out(jsonSafe(JSON.stringify(value, null, 2)));
    return;
  }
  const out = chunked(io.write);
  writeJson(value, out.emit);
  out.emit('\n');
  out.flush();
}
