/** Human figures shared by the CLI and the renderer. */
export function humanTokens(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return `${Math.round(n)}`;
  if (a < 1_000_000) return `${(n / 1000).toFixed(a < 10_000 ? 2 : 1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function humanBytes(n: number): string {
  const a = Math.abs(n);
  if (a < 1024) return `${n} B`;
  if (a < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (a < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function percent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  return `${Math.round((part / whole) * 100)}%`;
}

/** Dollars with two decimals, or two significant digits below ten cents. */
export function formatUsd(v: number): string {
  if (v >= 0.1 || v === 0) return `$${v.toFixed(2)}`;
  const decimals = Math.min(10, Math.max(4, 1 - Math.floor(Math.log10(Math.abs(v)))));
  return `$${v.toFixed(decimals)}`;
}
