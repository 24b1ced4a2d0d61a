import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DEAD_CLASSES, humanBytes, humanTokens, isDeadClass, type DeadClass, type EvictionPlan } from '@glassbox/core';
import type { RefusedAction, ValidationReport } from '@glassbox/core';
import { mcpWiring, type FilePlan, type ForkRequest } from '@glassbox/engine';
import { EXIT_REFUSED, UsageError } from '../exit-codes';
import { glassboxFor } from '../engine';
import { outJson, type CliIO } from '../io';
import { addSessionOptions, modelOption, parseProtect, resolveSessionPath, type SessionOptions } from '../session-args';
import { paint, type Paint } from '../render/palette';
import { header, padLeft, row, truncateLeft, type Column } from '../render/layout';
import { addArchiveOption, carriedOver, renderChecks, resumeLines } from '../fork-support';
import { parseAt, parseHorizon } from '../cache-args';
import { economicsJson, renderEconomics } from '../render/economics';
import { addElideOptions, parseElide, type ElideArgs } from '../elide-args';
import { exclusionsJson, renderExclusions } from '../render/exclusions';

interface CleanOptions extends SessionOptions, ElideArgs {
  classes?: string;
  minSavings?: string;
  fork?: boolean;
  archive?: string;
  at?: string;
  horizon?: string;
}

const DEAD: readonly DeadClass[] = DEAD_CLASSES;

export function registerClean(program: Command, io: CliIO): void {
  const cmd = addSessionOptions(program.command('clean').description('plan a cleaned fork (dry run), or write it with --fork; the original is never written'))
    .option('--classes <list>', `classes to evict, comma-separated (${DEAD.join(', ')}); default: the four proven ones, plus spent with --with-spent`)
    .option('--min-savings <n>', 'do not fork for fewer net tokens than this (default 200)')
    .option('--fork', 'write the fork: a new sibling session beside the original')
    .option('--at <time>', 'evaluate the prompt-cache figures as of this ISO time (default: now)')
    .option('--horizon <n>', 'plan the evictions with the lowest total cost over the next N requests');
  addArchiveOption(addElideOptions(cmd)).action((arg: string, opts: CleanOptions) => runClean(arg, opts, io));
}

function parseClasses(value: string | undefined, withInferred: boolean): DeadClass[] | undefined {
  // --with-spent adds spent to the proven classes; elision is only ever chosen by name.
  if (value === undefined) return withInferred ? DEAD.filter((c) => c !== 'elided') : undefined;
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  const out: DeadClass[] = [];
  for (const c of list) {
    if (!isDeadClass(c)) throw new UsageError(`--classes: unknown class "${c}" (known: ${DEAD.join(', ')})`);
    out.push(c);
  }
  return out;
}

function parseMin(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--min-savings ${value}: give a number of tokens (0 or more)`);
  return n;
}

function runClean(arg: string, opts: CleanOptions, io: CliIO): void {
  const path = resolveSessionPath(arg, io);
  const glassbox = glassboxFor(io, { archive: opts.archive });
  const classes = parseClasses(opts.classes, opts.withSpent === true);
  const minimumSavings = parseMin(opts.minSavings);
  const at = parseAt(opts.at);
  const horizon = parseHorizon(opts.horizon);
  // --repo wins; else a folder mapping saved in the index (the same one the app's list uses).
  const request: ForkRequest = {
    path,
    repoRootFor: glassbox.mappings.resolver(opts.repo ? resolve(opts.repo) : null),
    withInferred: opts.withSpent === true,
    protectTail: parseProtect(opts.protect),
  };
  if (classes) request.classes = classes;
  if (classes?.includes('elided')) request.elide = parseElide(opts);
  else if (opts.elideOver !== undefined || opts.elideKeep !== undefined) throw new UsageError('--elide-over and --elide-keep need the elided class: add it with --classes …,elided');
  const model = modelOption(opts.model).model;
  if (model !== undefined) request.model = model;
  if (minimumSavings !== undefined) request.minimumSavings = minimumSavings;
  if (at) request.at = at;
  if (horizon !== undefined) request.horizon = horizon;
  const p = paint(io.color);
  if (!opts.fork) {
    // The preview builds and validates the fork line by line: it shows exactly what --fork would write.
    const { planned, fork, report } = glassbox.forks.preview(request);
    failOnUnreadable(planned);
    if (opts.json) {
      outJson(io, {
        mode: 'dry-run',
        session: sessionJson(planned, path),
        plan: planJson(planned.plan),
        economics: economicsJson(planned.economics),
        economicsModel: planned.economics.model,
        validation: report ? reportJson(report) : null,
        refused: (fork?.refused ?? []).map((r) => ({ code: r.code, message: r.message, segmentId: r.action.segmentId })),
      });
      return;
    }
    io.out(renderPlan(planned, path, p).join('\n'));
    const kept = renderExclusions(planned.plan, p);
    if (kept.length > 0) io.out(['', ...kept].join('\n'));
    io.out(['', ...renderEconomics(planned.economics, p)].join('\n'));
    if (fork && report) {
      io.out('');
      io.out(p.bold(report.ok ? 'Checks (the fork would pass all of them)' : 'Checks (the fork would be REFUSED)'));
      io.out(renderChecks(report, p).join('\n'));
      io.out('');
      io.out(p.dim('Nothing was written. To write the fork beside the original:'));
      io.out(`  glassbox clean ${arg} --fork${opts.repo ? ` --repo ${opts.repo}` : ''}${opts.classes ? ` --classes ${opts.classes}` : ''}${opts.withSpent ? ' --with-spent' : ''}${opts.protect ? ` --protect ${opts.protect}` : ''}${opts.minSavings ? ` --min-savings ${opts.minSavings}` : ''}${opts.horizon ? ` --horizon ${opts.horizon}` : ''}${opts.elideOver ? ` --elide-over ${opts.elideOver}` : ''}${opts.elideKeep ? ` --elide-keep ${opts.elideKeep}` : ''}`);
    }
    return;
  }

  const outcome = glassbox.forks.write(request);
  failOnUnreadable(outcome.plan);
  if (outcome.status === 'nothing-to-remove') {
    const plan = outcome.plan;
    if (opts.json) outJson(io, { mode: 'fork', status: 'nothing-to-do', plan: planJson(plan.plan), economics: economicsJson(plan.economics) });
    else io.out([...renderPlan(plan, path, p), '', ...renderExclusions(plan.plan, p), '', 'No fork was written: there is nothing worth removing.'].join('\n'));
    return;
  }
  if (outcome.status === 'refused') {
    io.exitCode = EXIT_REFUSED;
    if (opts.json) {
      outJson(io, { mode: 'fork', status: 'refused', validation: reportJson(outcome.refused.report) });
      return;
    }
    io.err(p.bold('The fork was refused by validation; nothing was written.'));
    io.err(renderChecks(outcome.refused.report, p).join('\n'));
    return;
  }
  const { plan: planned, written: result, resume } = outcome;
  if (opts.json) {
    outJson(io, {
      mode: 'fork',
      status: 'written',
      forkId: result.forkId,
      forkPath: result.forkPath,
      sidecarDir: result.sidecarDir,
      manifestPath: result.manifestPath,
      resumeCommand: resume.command,
      resumeNote: resume.note,
      original: { path, sha256Before: result.originalSha256.before, sha256After: result.originalSha256.after },
      attempts: result.attempts,
      plan: planJson(planned.plan),
      economics: economicsJson(planned.economics),
      applied: result.manifest.actions,
      validation: reportJson(result.report),
      ...(result.manifest.actions.some((a) => a.elision) ? { mcp: mcpWiring(result.forkId, opts.archive ? resolve(opts.archive) : null) } : {}),
    });
    return;
  }
  const t = result.manifest.totals;
  io.out(p.bold(`Fork written: ${result.forkId}`));
  io.out(`  file      ${result.forkPath}`);
  if (result.manifest.sidecars.length > 0) io.out(`  carried   ${carriedOver(result.manifest.sidecars)}${result.sidecarDir ? ` into ${result.sidecarDir}` : ''}`);
  io.out(`  removed   ${result.applied.length} payload(s): ${humanTokens(t.tokensFreed)} tokens, ${humanBytes(t.bytesRemoved)}; tombstones cost ${humanTokens(t.tombstoneTokens)}`);
  io.out(`  checks    ${result.report.checks.length}/${result.report.checks.length} passed; estimated tokens of the live chain ${humanTokens(result.report.original.estimatedTokens)} → ${humanTokens(result.report.fork.estimatedTokens)}`);
  io.out(`  original  unchanged (sha256 ${result.originalSha256.after.slice(0, 16)}…), archived with every removed payload`);
  io.out(`  manifest  ${result.manifestPath}`);
  for (const line of refusedLines(result.refused)) io.out(p.dim(line));
  io.out('');
  for (const line of resumeLines(resume, p)) io.out(line);
  if (result.manifest.actions.some((a) => a.elision)) {
    // The elided middles are in the archive: this wires the resumed session to ask for them back.
    const wiring = mcpWiring(result.forkId, opts.archive ? resolve(opts.archive) : null);
    io.out('');
    io.out(p.bold('Let the agent recall elided middles (recall sends archived transcript text to the model provider):'));
    io.out(`  Claude Code  ${wiring.claude}`);
    io.out(`  Codex        ${wiring.codex}`);
  }
  io.out(p.dim(`Undo (moves the fork into the archive): glassbox undo ${result.forkId}   ·   check again: glassbox verify ${result.forkId}`));
}

/** A file that holds no session is bad input (exit 2), not an empty plan. */
function failOnUnreadable(planned: FilePlan): void {
  const fatal = planned.session.problems.find((q) => q.severity === 'error');
  if (fatal && (fatal.code === 'file_empty' || fatal.code === 'not_a_transcript' || fatal.code === 'file_missing' || fatal.code === 'file_unreadable')) throw new UsageError(fatal.message);
}

function renderPlan(planned: FilePlan, path: string, p: Paint): string[] {
  const plan = planned.plan;
  const out = [p.bold(`Clean ${planned.session.id}`) + p.dim(`  (dry run: nothing is written without --fork)`), `  file  ${truncateLeft(path, 90)}`, ''];
  if (plan.actions.length === 0) {
    out.push(p.bold('Nothing to remove.'));
    for (const r of plan.reasons) out.push(`  ${r.message} ${p.dim(`(${r.code})`)}`);
    return out;
  }
  const cols: Column[] = [
    { header: 'line', width: 6, align: 'right' },
    { header: 'class', width: 16 },
    { header: 'frees', width: 7, align: 'right' },
    { header: 'source', width: 24 },
    { header: 'why', width: 41 },
  ];
  out.push(p.bold(`Would remove ${plan.actions.length} payload(s), largest first`));
  out.push('  ' + p.dim(header(cols)));
  for (const a of plan.actions.slice(0, 40)) {
    out.push('  ' + row(cols, [String(a.line), a.class, humanTokens(a.tokensFreed), truncateLeft(a.sourceLabel, 24), a.reason.replace(/^[a-z-]+(?: \(inferred\))?: /, '')], (i, s) => (i === 1 ? p.cls(a.class, s) : s)));
  }
  if (plan.actions.length > 40) out.push(p.dim(`  … ${plan.actions.length - 40} more (--json)`));
  const by = new Map<string, { tokens: number; n: number }>();
  for (const a of plan.actions) {
    const t = by.get(a.class) ?? { tokens: 0, n: 0 };
    t.tokens += a.tokensFreed;
    t.n++;
    by.set(a.class, t);
  }
  out.push('');
  out.push(`  ${'reclaimable'.padEnd(22)} ${padLeft(humanTokens(plan.totals.reclaimable), 8)} tokens  ${p.dim([...by].map(([c, v]) => `${c} ${humanTokens(v.tokens)} (${v.n})`).join(' · '))}`);
  out.push(`  ${'tombstones cost'.padEnd(22)} ${padLeft(humanTokens(plan.totals.tombstoneTokens), 8)} tokens`);
  out.push(p.bold(`  ${'net reclaimed'.padEnd(22)} ${padLeft(humanTokens(plan.totals.netReclaimed), 8)} tokens`));
  for (const r of plan.reasons) out.push(p.dim(`  note: ${r.message}`));
  return out;
}

/** Planned payloads the fork kept because it could not replace them exactly. */
function refusedLines(refused: readonly RefusedAction[]): string[] {
  if (refused.length === 0) return [];
  return [`  kept ${refused.length} planned payload(s) the fork cannot replace exactly:`, ...refused.slice(0, 5).map((r) => `    ${r.message} (${r.code})`)];
}

function sessionJson(planned: FilePlan, path: string): object {
  return { id: planned.session.id, path, cwd: planned.session.cwd };
}

function planJson(plan: EvictionPlan): object {
  return {
    classes: plan.classes,
    totals: plan.totals,
    reasons: plan.reasons,
    protectedTail: plan.protectedTail,
    ...(plan.horizon ? { horizon: plan.horizon.requests } : {}),
    excluded: plan.excluded,
    exclusions: exclusionsJson(plan),
    actions: plan.actions.map((a) => ({
      segmentId: a.segmentId,
      line: a.line,
      uuid: a.uuid,
      blockIndex: a.blockIndex,
      target: a.target,
      toolUseId: a.toolUseId,
      class: a.class,
      source: a.sourceLabel,
      reason: a.reason,
      tokensFreed: a.tokensFreed,
      tombstoneTokens: a.tombstoneTokens,
      tombstone: a.tombstone,
      proof: a.proof,
    })),
  };
}

export function reportJson(report: ValidationReport): object {
  return { ok: report.ok, checks: report.checks, original: report.original, fork: report.fork, touchedLines: report.touchedLines };
}
