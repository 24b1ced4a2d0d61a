import { formatUsd, humanTokens, type ForkEconomics } from '@glassbox/core';
import type { Paint } from './palette';
import { WIDTH, padLeft, padRight, truncate } from './layout';

/** The `economics` object of `clean --json`: exactly these keys. */
export function economicsJson(e: ForkEconomics): object {
  return {
    ttl: e.ttl,
    lastResponseAt: e.lastResponseAt,
    cacheWarmUntil: e.cacheWarmUntil,
    prefixTokens: e.prefixTokens,
    original: { nextRequestUsd: e.original.nextRequestUsd, perRequestUsd: e.original.perRequestUsd },
    fork: { nextRequestUsd: e.fork.nextRequestUsd, perRequestUsd: e.fork.perRequestUsd },
    breakEvenRequests: e.breakEvenRequests,
    advice: e.advice,
  };
}

function usd(v: number | null, tokens: number): string {
  return v === null ? `${humanTokens(tokens)} tok-eq` : formatUsd(v);
}

function clock(iso: string | null, day = false): string {
  if (!iso) return 'unknown';
  return day ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : `${iso.slice(11, 16)} UTC`;
}

function ago(from: string, to: string): string {
  const min = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
  return min < 90 ? `${min} min` : min < 48 * 60 ? `${Math.round(min / 60)} h` : `${Math.round(min / 1440)} d`;
}

/** The prompt-cache section of `clean` and `inspect`: what forking now costs, and when it pays back. */
export function renderEconomics(e: ForkEconomics, p: Paint): string[] {
  const out = [p.bold('Prompt cache') + p.dim('  (what forking costs now; --at TIME, or clean --horizon N for the cheapest subset)')];
  const ttl = e.ttl === 'unknown' ? 'lifetime unknown (assumed 5 minutes)' : `${e.ttl === '1h' ? '1-hour' : '5-minute'} cache`;
  const state = e.cacheWarmUntil
    ? `warm until ${clock(e.cacheWarmUntil)} (${ago(e.at, e.cacheWarmUntil)} more)`
    : e.cacheExpiredAt
      ? `expired ${ago(e.cacheExpiredAt, e.at)} ago`
      : 'taken as expired';
  out.push(`  ${truncate(`${ttl} · last response ${clock(e.lastResponseAt, true)} · ${state}`, WIDTH - 2)}`);
  if (e.empty) {
    out.push(`  ${e.advice}`);
    return out;
  }
  out.push(`  ${truncate(`still cached: ${humanTokens(e.prefixTokens)} tokens before the first change · saved: ${humanTokens(e.savedTokensPerRequest)} per request (estimated)`, WIDTH - 2)}`);
  out.push('  ' + p.dim(`${padRight('', 22)} ${padLeft('next request', 14)} ${padLeft('each after', 14)}`));
  out.push(`  ${padRight('continue the original', 22)} ${padLeft(usd(e.original.nextRequestUsd, e.original.nextRequestTokens), 14)} ${padLeft(usd(e.original.perRequestUsd, e.original.perRequestTokens), 14)}`);
  out.push(`  ${padRight('resume the fork', 22)} ${padLeft(usd(e.fork.nextRequestUsd, e.fork.nextRequestTokens), 14)} ${padLeft(usd(e.fork.perRequestUsd, e.fork.perRequestTokens), 14)}`);
  const be = e.breakEvenRequests === null ? 'never' : e.breakEvenRequests === 1 ? 'from the first request' : `after ${e.breakEvenRequests} requests`;
  out.push(`  ${p.bold(`the fork is cheaper in total ${be}`)}`);
  for (const line of wrap(e.advice, WIDTH - 4)) out.push(`  ${line}`);
  for (const m of e.model) for (const line of wrap(m, WIDTH - 4)) out.push(p.dim(`  ${line}`));
  return out;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = `  ${word}`;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
