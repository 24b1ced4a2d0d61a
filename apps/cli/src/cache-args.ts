import { UsageError } from './exit-codes';

/** `--at <ISO time>`: evaluate the prompt-cache figures as of that moment (what-ifs, tests). */
export function parseAt(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
  const t = Date.parse(value);
  if (!iso.test(value.trim()) || Number.isNaN(t)) {
    throw new UsageError(`--at ${value}: give an ISO date and time, e.g. 2026-12-01T14:30:00Z`);
  }
  return new Date(t);
}

/** `--horizon N`: choose the evictions with the lowest total cost over the next N requests. */
export function parseHorizon(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isInteger(n) || n < 1 || n > 1_000_000) {
    throw new UsageError(`--horizon ${value}: give a whole number of requests, 1 to 1000000`);
  }
  return n;
}
