/**
 * How far a file's row has been filled in, stored as the `level` column (numbers, so "at least
 * listed" is one comparison in SQL). Code names the stages; only this file knows the numbers.
 */
export const Stage = {
  /** The file could not be read; `problem_note` says why. */
  unreadable: -1,
  /** Known by its fingerprint only. */
  fingerprinted: 0,
  /** Opening and closing records read: identity, last activity, context size. */
  listed: 1,
  /** Every line read: turns, usage, cost, search text, and a checkpoint to resume from. */
  summarised: 2,
} as const;

export type StageLevel = (typeof Stage)[keyof typeof Stage];
