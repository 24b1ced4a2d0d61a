/**
 * The cost an agent's client recorded for a session itself (a running total it writes into the
 * transcript), to be shown beside Glassbox's own figure: the two are independent counts of the same
 * responses, so a difference says one of them prices or counts something the other does not.
 */
export interface ClientCost {
  /** USD, as the client counts it (its last record for the session). */
  totalUsd: number;
  /** Per model, as the client names them. */
  byModel: ClientModelCost[];
  /** The line of the record the figures come from. */
  line: number;
  /**
   * The first line of the responses the figure covers: the client restores its running total on each
   * resume, but only from a record it wrote itself, so runs of an older client before it are left out.
   */
  fromLine: number;
  /** The client priced a model it had no price for (its figure holds a guess). */
  guessed: boolean;
}

export interface ClientModelCost {
  model: string;
  usd: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
