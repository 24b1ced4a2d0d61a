import { chunked, writeJson } from './render/json-stream';

/** Where a command writes, and the exit code it leaves: injectable so tests run commands in-process. */
export interface CliIO {
  out: (text: string) => void;
  /** Raw output in pieces, for a large document written as it is made; without it, the pieces go to `out` whole. */
  write?: (piece: string) => void;
  err: (text: string) => void;
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
    env: process.env,
    color: !noColor && (isTTY || forced),
    isTTY,
    exitCode: 0,
  };
}

/** Prints a JSON document (as `JSON.stringify(value, null, 2)` would) without making it one string. */
export function outJson(io: CliIO, value: unknown): void {
  if (!io.write) {
    io.out(JSON.stringify(value, null, 2));
    return;
  }
  const out = chunked(io.write);
  writeJson(value, out.emit);
  out.emit('\n');
  out.flush();
}
