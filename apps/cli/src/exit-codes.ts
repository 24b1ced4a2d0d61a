/** 0 done; 1 refused (validation failed, nothing written); 2 bad input. */
export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_BAD_INPUT = 2;

/** Bad input or usage: reported on stderr with exit code 2, never a stack trace. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_BAD_INPUT,
  ) {
    super(message);
  }
}
