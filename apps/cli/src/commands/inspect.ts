import type { Command } from 'commander';
import { CLASS_REGISTRY, PROVABLE_CLASSES, SEGMENT_CLASSES, isDeadClass, type DeadProof, humanBytes, humanTokens, percent, type ClassifiedSnapshot, type ForkEconomics, type SegmentClass } from '@glassbox/core';
import { deathReason } from '@glassbox/analysis';
import { parseAt } from '../cache-args';
import type { Lineage } from '@glassbox/engine';
import { glassboxFor } from '../engine';
import { economicsJson, renderEconomics } from '../render/economics';
import { outJson, type CliIO } from '../io';
import { addSessionOptions, analyzeRequest, resolveSessionPath, type SessionOptions } from '../session-args';
import { paint, type Paint } from '../render/palette';
import { WIDTH, bar, header, padLeft, padRight, row, truncate, truncateLeft, type Column } from '../render/layout';
import { snapshotJson } from '../render/snapshot-json';
import { retentionLine } from '../kept-support';
import { sourceTotals } from '../render/sources';
import { addElideOptions, parseElide, type ElideArgs } from '../elide-args';
import type { ElisionPreview } from '@glassbox/analysis';

export function registerInspect(program: Command, io: CliIO): void {
  const cmd = addSessionOptions(program.command('inspect').description('what is in the window, what costs tokens, what is reclaimable'))
    .option('--top <n>', 'how many dead segments to list', '12')
    .option('--at <time>', 'evaluate the prompt-cache figures as of this ISO time (default: now)');
  addElideOptions(cmd).action((arg: string, opts: SessionOptions & ElideArgs & { top: string; at?: string }) => {
    const at = parseAt(opts.at) ?? new Date();
    const path = resolveSessionPath(arg, io);
    // What forking with the default plan would cost now: the same plan `clean` starts from, at the agent's list prices.
    const { snapshot, economics, lineage, elision } = glassboxFor(io).sessions.inspect(path, { ...analyzeRequest(opts, io), at, elide: parseElide(opts) });
    const retention = retentionLine(path, snapshot.session.cwd, io);
    if (opts.json) {
      outJson(io, { ...(snapshotJson(snapshot) as object), economics: economicsJson(economics), lineage, retention, elision });
      return;
    }
    const p = paint(io.color);
    io.out(renderInspect(snapshot, p, Math.max(1, Number(opts.top) || 12), economics, lineage, retention));
    io.out(['', ...renderElision(elision, snapshot, p)].join('\n'));
  });
}

/** What elision would save: opt-in, lossy but recoverable, never part of the figures above. */
function renderElision(e: ElisionPreview, snap: ClassifiedSnapshot, p: Paint): string[] {
  const title = p.bold(`Elision (opt-in; lossy, recoverable): results over ${e.overTokens.toLocaleString('en-US')} tokens keep ${e.keepChars.toLocaleString('en-US')} chars at each end`);
  if (e.results === 0) return [title, p.dim('  no tool result older than the protected tail is that large')];
  const base = snap.context.reportedTokens ?? snap.context.estimatedTokens;
  const out = [title, `  ${e.results} result(s), ${humanTokens(e.tokens)} tokens: saves ${p.cls('elided', humanTokens(e.netTokens))} net (${percent(e.netTokens, base)} of the window); ends kept ${humanTokens(e.keptTokens)}`];
  for (const l of e.largest) out.push(`    line ${padLeft(String(l.line), 6)}  ${padLeft(humanTokens(l.tokens), 7)}  ${truncate(l.source, WIDTH - 30)}`);
  // A session id's first characters find it (clean takes a prefix of 6 or more): the line fits.
  out.push(p.dim(truncate(`  Preview it: glassbox clean ${snap.session.id.slice(0, 8)} --classes ${[...PROVABLE_CLASSES, 'elided'].join(',')}`, WIDTH)));
  return out;
}

function renderInspect(snap: ClassifiedSnapshot, p: Paint, top: number, economics?: ForkEconomics, lineage?: Lineage, retention?: string | null): string {
  const out: string[] = [];
  out.push(...sessionHeader(snap, p, retention));
  if (lineage?.forkOf) {
    out.push(`  ${lineage.forkOf.kind === 'undo' ? 'restored' : 'fork of '} ${truncateLeft(lineage.forkOf.path, WIDTH - 40)}  ${p.dim(`written ${lineage.forkOf.createdAt.slice(0, 16).replace('T', ' ')} UTC`)}`);
  }
  if (lineage?.willSend) {
    out.push(`  sends    ≈${humanTokens(lineage.willSend.estimatedTokens)} tokens (estimated: the original's reported ${humanTokens(lineage.willSend.originalReportedTokens)} minus what the fork removed)`);
  }
  if (lineage && lineage.forks.length > 0) out.push(`  forks    ${truncate(lineage.forks.map((f) => f.sessionId).join(', '), WIDTH - 11)}`);
  out.push('');
  out.push(...windowSection(snap, p));
  out.push('');
  out.push(...topSources(snap, p));
  out.push('');
  out.push(...classSection(snap, p));
  out.push('');
  out.push(...deadList(snap, p, top));
  if (economics && !economics.empty) {
    out.push('');
    out.push(...renderEconomics(economics, p));
  }
  if (snap.subagents.length > 0) {
    out.push('');
    out.push(p.bold(`Subagent windows (${snap.subagents.length}, separate from this window)`));
    for (const s of snap.subagents) {
      const label = s.description ?? s.agentType ?? s.agentId;
      out.push(`  ${padRight(truncate(label, 50), 50)} ${padLeft(humanTokens(s.reportedTokens ?? s.estimatedTokens), 8)} tokens  ${s.segments} segments`);
    }
  }
  out.push(...problemSection(snap, p));
  return out.join('\n');
}

/** The session's identity; `retention` is the line about its client's clean-up and its kept copy (kept-support.ts). */
export function sessionHeader(snap: ClassifiedSnapshot, p: Paint, retention?: string | null): string[] {
  const s = snap.session;
  const out = [p.bold(`Session ${s.id}`) + (s.title ? `  ${p.dim(truncate(s.title, WIDTH - s.id.length - 10))}` : '')];
  out.push(`  file     ${truncateLeft(s.path, WIDTH - 11)}`);
  const where = s.repoRoot ? `${s.cwd ?? '?'} → ${s.repoRoot}` : (s.cwd ?? 'unknown');
  const status = s.repoExists ? 'exists here' : 'not here: gone/drift unprovable';
  const room = WIDTH - 11 - status.length - 4;
  out.push(`  cwd      ${truncateLeft(where, room)}  (${s.repoExists ? status : p.dim(status)})`);
  out.push(`  client   ${s.agent} ${s.version ?? '?'}${s.gitBranch ? `  ·  branch ${s.gitBranch}` : ''}`);
  if (retention) out.push(`  keeping  ${truncate(retention, WIDTH - 11)}`);
  return out;
}

function windowSection(snap: ClassifiedSnapshot, p: Paint): string[] {
  const c = snap.context;
  const out = [p.bold('Context window')];
  if (c.reportedTokens !== null) {
    out.push(`  ${padRight('reported by the provider (last request)', 50)} ${padLeft(humanTokens(c.reportedTokens), 8)} tokens`);
  } else {
    out.push(`  ${padRight('reported by the provider', 50)} ${padLeft('n/a', 8)}        ${p.dim('(no usage in the window)')}`);
  }
  out.push(`  ${padRight('in the transcript (estimated)', 50)} ${padLeft(humanTokens(c.estimatedTokens), 8)} tokens  ${p.dim(`${snap.segments.length} segments`)}`);
  out.push(`  ${padRight('system prompt, tools, memory (not in transcript)', 50)} ${padLeft(humanTokens(c.unattributedTokens), 8)} tokens  ${p.dim('reported − estimated')}`);
  out.push(`  ${p.dim(truncate(c.calibration.basis, WIDTH - 2))}`);
  const extras = [`compactions ${c.compactions}`];
  if (c.microcompactions) extras.push(`microcompactions ${c.microcompactions}`);
  extras.push(`tool-result mirrors ${humanBytes(c.mirrorBytes)} (file bytes, never sent)`);
  if (c.lastModel) extras.push(`model ${c.lastModel}`);
  out.push(`  ${p.dim(truncate(extras.join(' · '), WIDTH - 2))}`);
  out.push(...requestLines(snap, p));
  return out;
}

/** The request the window stands for: the model assumed, and what the client leaves out. */
function requestLines(snap: ClassifiedSnapshot, p: Paint): string[] {
  const r = snap.request;
  if (!r) return [];
  const out = [`  next request on ${r.model ?? 'an unknown model'}  ${p.dim(truncate(`(${r.modelBasis}; --model to change)`, WIDTH - 22 - (r.model?.length ?? 0)))}`];
  const left = r.notSent.filter((n) => n.items > 0);
  if (left.length > 0) {
    out.push(`  ${p.dim('not sent by the client (not counted):')}`);
    for (const n of left.slice(0, 6)) out.push(`    ${p.dim(truncate(`${n.items} × ${n.reason}${n.bytes > 0 ? ` (${humanBytes(n.bytes)})` : ''}`, WIDTH - 4))}`);
  }
  return out;
}

function topSources(snap: ClassifiedSnapshot, p: Paint): string[] {
  const whole = snap.context.estimatedTokens || 1;
  const top = sourceTotals(snap).slice(0, 5);
  const out = [p.bold('What costs tokens') + p.dim('  (largest sources; glassbox xray for more)')];
  for (const s of top) {
    const dead = s.tokens - (s.byClass.live ?? 0);
    const note = dead > 0 ? `  ${humanTokens(dead)} dead` : '';
    out.push(`  ${padRight(truncateLeft(s.label, 44), 44)} ${padRight(s.type, 10)} ${padLeft(humanTokens(s.tokens), 7)} ${padLeft(percent(s.tokens, whole), 4)}  ${s.segments} seg${note}`);
  }
  return out;
}

function classSection(snap: ClassifiedSnapshot, p: Paint): string[] {
  const totals = new Map<SegmentClass, { tokens: number; n: number }>();
  for (const s of snap.segments) {
    const t = totals.get(s.class) ?? { tokens: 0, n: 0 };
    t.tokens += s.tokens;
    t.n++;
    totals.set(s.class, t);
  }
  const whole = snap.context.estimatedTokens || 1;
  const cols: Column[] = [
    { header: 'class', width: 20 },
    { header: 'tokens', width: 9, align: 'right' },
    { header: 'share', width: 6, align: 'right' },
    { header: 'segments', width: 8, align: 'right' },
    { header: '', width: 40 },
  ];
  const out = [p.bold('By class') + p.dim('  (estimated tokens; inferred classes say so, dead ones are otherwise proven)'), '  ' + p.dim(header(cols))];
  for (const cls of SEGMENT_CLASSES) {
    const t = totals.get(cls);
    if (!t) continue;
    const label = CLASS_REGISTRY[cls].evidence === 'inferred' ? `${cls} (inferred)` : cls;
    out.push('  ' + row(cols, [label, humanTokens(t.tokens), percent(t.tokens, whole), String(t.n), bar(t.tokens / whole, 40)], (i, s) => (i === 0 || i === 4 ? p.cls(cls, s) : s)));
  }
  const r = snap.reclaimable;
  const base = snap.context.reportedTokens ?? snap.context.estimatedTokens;
  out.push('');
  if (r.tokens > 0) {
    out.push(
      p.bold(`Reclaimable ${humanTokens(r.tokens)} tokens (${percent(r.tokens, base)} of the window)`) +
        `  net ${humanTokens(r.netTokens)} after tombstones (${humanTokens(r.tombstoneTokens)})`,
    );
    const parts = Object.entries(r.byClass)
      .filter(([, v]) => v.segments > 0)
      .map(([k, v]) => p.cls(k as SegmentClass, `${k} ${humanTokens(v.tokens)} (${v.segments})`));
    out.push(`  ${parts.join('  ·  ')}`);
    out.push(p.dim(truncate(`  Preview a fork: glassbox clean ${snap.session.id}${snap.session.repoRoot ? ` --repo ${snap.session.repoRoot}` : ''}`, WIDTH)));
  } else {
    const dead = snap.segments.filter((s) => s.class !== 'live').length;
    out.push(
      p.bold('Reclaimable 0 tokens') +
        (dead > 0
          ? `  ${dead} dead segment(s) are in the protected tail or smaller than a tombstone`
          : '  nothing here is provably dead — that is a normal result'),
    );
  }
  return out;
}

function deadList(snap: ClassifiedSnapshot, p: Paint, top: number): string[] {
  const dead = snap.segments.filter((s): s is typeof s & { proof: DeadProof } => isDeadClass(s.class) && s.proof !== undefined).sort((a, b) => b.tokens - a.tokens);
  if (dead.length === 0) return [];
  const cols: Column[] = [
    { header: 'line', width: 6, align: 'right' },
    { header: 'class', width: 16 },
    { header: 'tokens', width: 7, align: 'right' },
    { header: 'source', width: 22 },
    { header: 'why', width: 43 },
  ];
  const out = [p.bold(`Dead segments (${dead.length}, largest first)`), '  ' + p.dim(header(cols))];
  for (const s of dead.slice(0, top)) {
    const why = s.proof ? deathReason(s.proof, s.source.label) : '';
    const mark = s.protected ? ' (protected)' : '';
    out.push('  ' + row(cols, [String(s.line), s.class, humanTokens(s.tokens), truncateLeft(s.source.label, 22), why.replace(/^[a-z-]+: /, '') + mark], (i, t) => (i === 1 ? p.cls(s.class, t) : t)));
  }
  if (dead.length > top) out.push(p.dim(`  … ${dead.length - top} more (--top N, or --json)`));
  return out;
}

function problemSection(snap: ClassifiedSnapshot, p: Paint): string[] {
  // Record types Glassbox does not know are named here (once each): they are in no figure.
  const shown = snap.problems.filter((q) => q.severity !== 'info' || q.code === 'repo_missing' || q.code === 'unknown_record_type');
  if (shown.length === 0) return [];
  const out = ['', p.bold(`Notes (${shown.length})`)];
  for (const q of shown.slice(0, 10)) out.push(`  ${q.severity === 'info' ? '·' : '!'} ${truncate(q.message, WIDTH - 4)}`);
  if (shown.length > 10) out.push(p.dim(`  … ${shown.length - 10} more in --json`));
  return out;
}
