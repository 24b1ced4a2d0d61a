import type { Command } from 'commander';
import { SEGMENT_CLASSES, humanTokens, percent, type ClassifiedSnapshot } from '@glassbox/core';
import { outJson, type CliIO } from '../io';
import { addSessionOptions, loadAndAnalyze, type SessionOptions } from '../session-args';
import { paint, type Paint } from '../render/palette';
import { WIDTH, bar, header, row, truncateLeft, type Column } from '../render/layout';
import { sessionHeader } from './inspect';
import { retentionLine } from '../kept-support';
import { sourceTotals, type SourceTotal } from '../render/sources';

export function registerXray(program: Command, io: CliIO): void {
  addSessionOptions(program.command('xray').description('the sources and classes that dominate the window'))
    .option('--top <n>', 'how many sources to show', '20')
    .action((arg: string, opts: SessionOptions & { top: string }) => {
      const { snapshot } = loadAndAnalyze(arg, opts, io);
      const sources = sourceTotals(snapshot);
      const top = Math.max(1, Number(opts.top) || 20);
      if (opts.json) {
        outJson(io, {
          session: { id: snapshot.session.id, path: snapshot.session.path },
          context: snapshot.context,
          byClass: classTotals(snapshot),
          bySourceType: typeTotals(snapshot),
          sources: sources.slice(0, top),
        });
        return;
      }
      io.out(renderXray(snapshot, sources.slice(0, top), paint(io.color), sources.length, retentionLine(snapshot.session.path, snapshot.session.cwd, io)));
    });
}

function classTotals(snap: ClassifiedSnapshot): Record<string, { tokens: number; segments: number }> {
  const out: Record<string, { tokens: number; segments: number }> = {};
  for (const s of snap.segments) {
    const t = (out[s.class] ??= { tokens: 0, segments: 0 });
    t.tokens += s.tokens;
    t.segments++;
  }
  return out;
}

function typeTotals(snap: ClassifiedSnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of snap.segments) out[s.source.type] = (out[s.source.type] ?? 0) + s.tokens;
  return out;
}

function renderXray(snap: ClassifiedSnapshot, sources: SourceTotal[], p: Paint, total: number, retention: string | null): string {
  const out = sessionHeader(snap, p, retention);
  const whole = snap.context.estimatedTokens || 1;
  out.push('');
  const types = Object.entries(typeTotals(snap)).sort((a, b) => b[1] - a[1]);
  out.push(p.bold('By kind of source') + p.dim('  (estimated tokens)'));
  out.push(...wrap(types.map(([t, n]) => `${t} ${humanTokens(n)} (${percent(n, whole)})`), WIDTH - 2).map((l) => '  ' + l));
  if (snap.context.unattributedTokens > 0) {
    out.push('  ' + p.cls('unattributed', `system prompt, tools, memory ${humanTokens(snap.context.unattributedTokens)}`) + p.dim(' (reported, not in the transcript)'));
  }
  out.push('');
  const byClass = classTotals(snap);
  out.push(p.bold('By class'));
  out.push(
    '  ' +
      SEGMENT_CLASSES.filter((c) => byClass[c])
        .map((c) => p.cls(c, `${c} ${humanTokens(byClass[c]?.tokens ?? 0)} (${percent(byClass[c]?.tokens ?? 0, whole)})`))
        .join('  ·  '),
  );
  out.push('');
  const cols: Column[] = [
    { header: 'source', width: 36 },
    { header: 'kind', width: 10 },
    { header: 'tokens', width: 7, align: 'right' },
    { header: 'share', width: 5, align: 'right' },
    { header: 'n', width: 4, align: 'right' },
    { header: '', width: 32 },
  ];
  out.push(p.bold(`Top sources (${sources.length} of ${total})`));
  out.push('  ' + p.dim(header(cols)));
  const max = sources[0]?.tokens || 1;
  for (const s of sources) {
    const cells = [truncateLeft(s.label, 36), s.type, humanTokens(s.tokens), percent(s.tokens, whole), String(s.segments), ''];
    const line = row(cols, cells);
    out.push('  ' + line + ' ' + stackedBar(s, max, 30, p));
  }
  return out.join('\n');
}

/** Joins items with separators, breaking lines before they pass the width. */
function wrap(items: string[], width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const item of items) {
    const next = cur ? `${cur}  ·  ${item}` : item;
    if (next.length > width && cur) {
      lines.push(cur);
      cur = item;
    } else cur = next;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** One bar per source, split by class so the dead part shows in its colour. */
function stackedBar(s: SourceTotal, max: number, width: number, p: Paint): string {
  const cells = Math.max(1, Math.round((s.tokens / max) * width));
  let out = '';
  let used = 0;
  for (const c of SEGMENT_CLASSES) {
    const t = s.byClass[c];
    if (!t) continue;
    const n = Math.min(cells - used, Math.max(1, Math.round((t / s.tokens) * cells)));
    if (n <= 0) continue;
    out += p.cls(c, bar(1, n));
    used += n;
  }
  return out;
}
