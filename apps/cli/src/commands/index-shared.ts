import { humanBytes } from '@glassbox/core';
import { openIndex, type Progress, type RefreshReport, type SessionIndex } from '@glassbox/store';
import type { CliIO } from '../io';
import { AGENTS } from '../agents';
import { glassboxFor } from '../engine';

/** Options shared by `index`, `sessions` and `watch`. */
export interface IndexOptions {
  db?: string;
  workers?: string;
}

export function openCliIndex(io: CliIO, opts: IndexOptions): SessionIndex {
  const workers = opts.workers === undefined ? undefined : Number(opts.workers);
  const index = openIndex({
    agents: AGENTS.registry,
    env: io.env,
    // The index looks for sessions under the HOME the command was given (in-process runs pass their own).
    ...(io.env['HOME'] ? { home: io.env['HOME'] } : {}),
    ...(opts.db ? { dbPath: opts.db } : {}),
    ...(workers !== undefined && Number.isInteger(workers) && workers >= 0 ? { workers } : {}),
    archiveDir: glassboxFor(io).setup.archiveDir,
  });
  const shown = new Set(index.notices);
  for (const n of shown) io.err(`glassbox: ${n}`);
  printed.set(index, shown);
  return index;
}

const printed = new WeakMap<SessionIndex, Set<string>>();

/** Notices a refresh raised (a database damaged mid-run, workers that could not start), each printed once. */
export function printNotices(io: CliIO, index: SessionIndex, report: RefreshReport): void {
  const shown = printed.get(index) ?? new Set<string>();
  for (const n of report.notices) {
    if (shown.has(n)) continue;
    shown.add(n);
    io.err(`glassbox: ${n}`);
  }
  printed.set(index, shown);
}

const PHASE_LABEL: Record<Progress['phase'], string> = {
  discover: 'discovering',
  list: 'listing',
  summary: 'reading',
  analysis: 'analysing',
  done: 'done',
};

/**
 * Progress for a refresh: on a terminal, one bar redrawn in place on stderr (files, bytes, rate,
 * time left); otherwise plain lines (each quarter of a long phase, and its end) unless plain is false.
 */
export function progressReporter(
  io: CliIO,
  options: { plain?: boolean; stream?: NodeJS.WriteStream } = {},
): { onProgress: (p: Progress) => void; end: () => void } {
  const stream = options.stream ?? process.stderr;
  const tty = io.isTTY && stream.isTTY === true;
  let lastDraw = 0;
  let drawn = false;
  let lastQuarter = -1;
  let lastPhase: Progress['phase'] | null = null;
  let ratePhase: Progress['phase'] | null = null;
  let phaseStartMs = 0;
  const describe = (p: Progress): { share: number; text: string } => {
    if (p.phase !== ratePhase) {
      ratePhase = p.phase;
      phaseStartMs = p.elapsedMs;
    }
    const share = p.bytesTotal > 0 ? p.bytes / p.bytesTotal : p.filesTotal > 0 ? p.files / p.filesTotal : 1;
    const seconds = p.elapsedMs / 1000;
    // Rate and time left are the current phase's own: each phase reads the bytes again.
    const phaseSeconds = (p.elapsedMs - phaseStartMs) / 1000;
    const rate = phaseSeconds > 0 ? p.bytes / phaseSeconds : 0;
    const left = rate > 0 && p.bytesTotal > p.bytes ? (p.bytesTotal - p.bytes) / rate : 0;
    const parts = [`${PHASE_LABEL[p.phase]} ${p.files}/${p.filesTotal} files`];
    if (p.bytesTotal > 0) parts.push(`${humanBytes(p.bytes)}/${humanBytes(p.bytesTotal)}`, `${humanBytes(Math.round(rate))}/s`);
    if (left > 0) parts.push(`${left < 60 ? Math.ceil(left) + ' s' : Math.ceil(left / 60) + ' min'} left`);
    parts.push(`${seconds.toFixed(1)} s`);
    return { share, text: parts.join(' · ') };
  };
  const onProgress = (p: Progress) => {
    if (p.phase === 'discover' || p.phase === 'done' || p.filesTotal === 0) return;
    const { share, text } = describe(p);
    if (tty) {
      const now = Date.now();
      if (now - lastDraw < 80 && p.files < p.filesTotal) return;
      lastDraw = now;
      const width = 24;
      const full = Math.round(Math.max(0, Math.min(1, share)) * width);
      stream.write(`\r\x1b[2K${'█'.repeat(full)}${'░'.repeat(width - full)} ${text}`);
      drawn = true;
      return;
    }
    if (options.plain === false) return;
    if (p.phase !== lastPhase) {
      lastPhase = p.phase;
      lastQuarter = -1;
    }
    // Plain lines: each quarter of a long phase, and its end.
    const quarter = p.files === p.filesTotal ? 4 : Math.floor(share * 4);
    if (quarter <= lastQuarter || (quarter < 4 && (quarter === 0 || p.filesTotal < 100))) return;
    lastQuarter = quarter;
    io.err(text);
  };
  return {
    onProgress,
    end: () => {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** "3 min ago", "2 h ago", "5 days ago", else the date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, (now - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 30) return `${Math.floor(s / 86400)} days ago`;
  return new Date(t).toISOString().slice(0, 10);
}

/** `--since`: an ISO date or time, or a span back from now (30m, 12h, 7d, 2w). */
export function parseSince(text: string, now = Date.now()): Date | null {
  const m = /^(\d+)\s*(m|min|h|d|w)$/i.exec(text.trim());
  if (m?.[1] && m[2]) {
    const unit = { m: 60, min: 60, h: 3600, d: 86400, w: 604800 }[m[2].toLowerCase()] ?? 0;
    return new Date(now - Number(m[1]) * unit * 1000);
  }
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : new Date(t);
}
