/** Where a command writes, and the exit code it leaves: injectable so tests run commands in-process. */
export interface CliIO {
  out: (text: string) => void;
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
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    env: process.env,
    color: !noColor && (isTTY || forced),
    isTTY,
    exitCode: 0,
  };
}
