import type { Command } from 'commander';
import type { ResumeInstruction } from '@glassbox/engine';
import type { CheckResult, ValidationReport } from '@glassbox/core';
import type { Paint } from './render/palette';
import { truncate, WIDTH } from './render/layout';

/** `--archive DIR`: where forks' originals and manifests are kept (default: GLASSBOX_DATA_DIR/archive, XDG, ~/.local/share). */
export function addArchiveOption(cmd: Command): Command {
  return cmd.option('--archive <dir>', 'the archive folder (default: $GLASSBOX_DATA_DIR/archive, $XDG_DATA_HOME/glassbox/archive, ~/.local/share/glassbox/archive)');
}

export function renderChecks(report: ValidationReport, p: Paint): string[] {
  const out: string[] = [];
  for (const c of report.checks) out.push(...renderCheck(c, p));
  return out;
}

function renderCheck(c: CheckResult, p: Paint): string[] {
  const mark = c.ok ? p.fg('#009E73', '✓') : p.fg('#D55E00', '✗');
  const out = [`  ${mark} ${c.title}`];
  for (const f of c.failures.slice(0, 5)) {
    const where = [f.line !== undefined ? `line ${f.line}` : '', f.uuid ? `record ${f.uuid}` : ''].filter(Boolean).join(', ');
    out.push(`      ${truncate(`${where ? where + ': ' : ''}${f.detail}`, WIDTH - 6)}`);
  }
  const more = c.failures.length - 5 + c.more;
  if (more > 0) out.push(p.dim(`      … ${more} more (--json)`));
  return out;
}

/** "3 subagent/tool-result files, 4 checkpoint backups": what was carried over beside a session. */
export function carriedOver(sidecars: readonly { rel: string }[]): string {
  const history = sidecars.filter((s) => s.rel.startsWith('file-history/')).length;
  const parts = [];
  if (sidecars.length - history > 0) parts.push(`${sidecars.length - history} subagent/tool-result file(s)`);
  if (history > 0) parts.push(`${history} checkpoint backup(s)`);
  return parts.join(', ');
}

/** How to resume a session Glassbox wrote: the command (with its note), or why there is none. */
export function resumeLines(resume: ResumeInstruction, p: Paint): string[] {
  if (!resume.command) return [`Resume: ${resume.note ?? ''}`];
  return ['Resume it:', `  ${resume.command}`, ...(resume.note ? [p.dim(`  (${resume.note})`)] : [])];
}
