import type { Command } from 'commander';
import { humanBytes } from '@glassbox/core';
import { parseAge, type ArchiveReport, type PrunePlan } from '@glassbox/engine';
import { glassboxFor } from '../engine';
import { EXIT_REFUSED, UsageError } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import { paint, type Paint } from '../render/palette';
import { header, row, truncate, truncateLeft, type Column } from '../render/layout';
import { relativeTime } from './index-shared';

interface ArchiveOptions {
  archive?: string;
  json?: boolean;
}

export function registerArchive(program: Command, io: CliIO): void {
  const archive = program
    .command('archive')
    .description('what the archive holds (kept sessions, their versions, size by project); prune and verify it')
    .option('--archive <dir>', 'the archive folder (default: $GLASSBOX_DATA_DIR/archive)')
    .option('--json', 'print JSON')
    .action((opts: ArchiveOptions) => {
      const report = glassboxFor(io, { archive: opts.archive }).keeping.report();
      if (opts.json) outJson(io, report);
      else io.out(renderReport(report, paint(io.color)));
      for (const p of report.problems) io.err(`glassbox: ${p}`);
    });

  archive
    .command('prune')
    .description('remove kept sessions last active before a cut-off, and versions superseded before it (a dry run unless --yes)')
    .requiredOption('--older-than <age>', 'a span back from now: 90d, 12w, 6m, 1y')
    .option('--yes', 'remove them (without it, only say what would go)')
    .option('--archive <dir>', 'the archive folder (default: $GLASSBOX_DATA_DIR/archive)')
    .option('--json', 'print JSON')
    .action((opts: ArchiveOptions & { olderThan: string; yes?: boolean }) => {
      const cutoff = parseAge(opts.olderThan);
      if (!cutoff) throw new UsageError(`--older-than ${opts.olderThan}: give a span such as 90d, 12w, 6m or 1y`);
      const keeping = glassboxFor(io, { archive: opts.archive }).keeping;
      const plan = keeping.planPrune(cutoff);
      for (const p of plan.problems) io.err(`glassbox: ${p}`);
      if (!opts.yes) {
        if (opts.json) outJson(io, { dryRun: true, ...plan });
        else io.out(renderPlan(plan, paint(io.color)));
        return;
      }
      const done = keeping.prune(cutoff);
      for (const p of done.problems.filter((x) => !plan.problems.includes(x))) io.err(`glassbox: ${p}`);
      if (opts.json) outJson(io, { dryRun: false, ...done });
      else io.out(`removed ${done.removedSessions} session(s) and ${done.removedVersions} older version(s); ${done.removedChunks} chunk(s), ${humanBytes(done.freedBytes)} freed`);
      if (done.problems.some((x) => x.includes('could not be read'))) io.exitCode = EXIT_REFUSED;
    });

  archive
    .command('verify')
    .description('check every kept version, chunk and fork object against its hash (changes nothing; exit 1 on any problem)')
    .option('--archive <dir>', 'the archive folder (default: $GLASSBOX_DATA_DIR/archive)')
    .option('--json', 'print JSON')
    .action((opts: ArchiveOptions) => {
      const tty = io.isTTY && process.stderr.isTTY === true;
      const r = glassboxFor(io, { archive: opts.archive }).keeping.verify(tty ? (done, total) => process.stderr.write(`\r\x1b[2Kverifying ${done}/${total}`) : undefined);
      if (tty) process.stderr.write('\r\x1b[2K');
      if (opts.json) outJson(io, r);
      else {
        const p = paint(io.color);
        io.out(
          `${r.ok ? p.fg('#009E73', '✓ the archive checks out') : p.fg('#D55E00', `✗ ${r.problems.length} problem(s)`)}: ` +
            `${r.sessions} kept session(s), ${r.versions} version(s), ${r.chunks} chunk(s) hashed, ${r.files} newest file(s) reassembled; ${r.forks} fork manifest(s), ${r.objects} object(s)` +
            (r.unnamedChunks > 0 ? `; ${r.unnamedChunks} chunk(s) no version names (archive prune removes them)` : ''),
        );
        for (const x of r.problems) io.out(`  ${x}`);
      }
      if (!r.ok) io.exitCode = EXIT_REFUSED;
    });
}

const SESSION_COLUMNS: Column[] = [
  { header: 'project', width: 22 },
  { header: 'title', width: 28 },
  { header: 'last activity', width: 13 },
  { header: 'versions', width: 8, align: 'right' },
  { header: 'size', width: 8, align: 'right' },
  { header: 'original', width: 16 },
];

function renderReport(r: ArchiveReport, p: Paint): string {
  if (r.totals.sessions === 0) return `the archive ${r.root} holds no kept session yet (glassbox keep <session>, or keep --all)`;
  const out = [p.bold(`${r.totals.sessions} kept session(s), ${r.totals.versions} version(s): ${humanBytes(r.totals.storedBytes)} on disk for ${humanBytes(r.totals.allVersionsBytes)} of session files kept`) + p.dim(`  ${r.root}`), ''];
  out.push('  ' + p.dim(header(SESSION_COLUMNS)));
  for (const s of r.sessions) {
    out.push(
      '  ' +
        row(SESSION_COLUMNS, [
          truncateLeft(s.cwd ?? s.project, 22),
          truncate((s.title ?? '(no title)').replace(/\s+/g, ' '), 28),
          relativeTime(s.lastActivity),
          String(s.versions.length),
          humanBytes(s.bytes),
          s.goneSince ? `gone ${s.goneSince.slice(0, 10)}` : 'on disk',
        ]),
    );
  }
  out.push('', p.bold('By project'));
  for (const pr of r.byProject) out.push(`  ${truncateLeft(pr.project, 44).padEnd(44)} ${String(pr.sessions).padStart(4)} session(s) ${humanBytes(pr.bytes).padStart(9)}  ${humanBytes(pr.storedBytes).padStart(9)} stored`);
  return out.join('\n');
}

function renderPlan(plan: PrunePlan, p: Paint): string {
  const out = [p.bold(`Dry run: nothing was removed. Sessions last active before ${plan.cutoff.slice(0, 10)}, and versions superseded before it:`)];
  for (const s of plan.sessions) out.push(`  session ${s.sessionId}  last active ${s.lastActivity.slice(0, 10)}  ${s.versions} version(s)  ${s.goneSince ? 'its original is gone' : 'its original is still on disk'}`);
  if (plan.versions.length > 0) out.push(`  ${plan.versions.length} older version(s) of ${new Set(plan.versions.map((v) => v.key)).size} session(s) that stay`);
  if (plan.sessions.length === 0 && plan.versions.length === 0) out.push('  nothing');
  out.push(`would free ${humanBytes(plan.freedBytes)} (${plan.chunks} chunk(s)). Run again with --yes to remove them.`);
  return out.join('\n');
}
