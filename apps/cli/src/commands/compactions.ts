import { resolve } from 'node:path';
import type { Command } from 'commander';
import { humanTokens, percent, type CompactionHistory, type CompactionItem, type CompactionReport } from '@glassbox/core';
import { glassboxFor } from '../engine';
import { outJson, type CliIO } from '../io';
import { resolveSessionPath } from '../session-args';
import { paint, type Paint } from '../render/palette';
import { WIDTH, header, row, truncate, truncateLeft, type Column } from '../render/layout';

const TOP_DROPPED = 12;

export function registerCompactions(program: Command, io: CliIO): void {
  program
    .command('compactions')
    .description('what each compaction forgot: the window before it, what its summary kept and what it dropped')
    .argument('<session>', 'a transcript file (.jsonl) or a session id')
    .option('--repo <dir>', "map the session's working directory to this folder (to prove reads gone or drifted)")
    .option('--all', 'list every dropped item, not only the largest')
    .option('--json', 'print JSON: one entry per compaction')
    .action((arg: string, opts: { repo?: string; all?: boolean; json?: boolean }) => {
      const path = resolveSessionPath(arg, io);
      const glassbox = glassboxFor(io);
      const opened = glassbox.sessions.open(path);
      const loaded = opened.loaded;
      const repoRoot = glassbox.mappings.resolver(opts.repo ? resolve(opts.repo) : null)(loaded.session.cwd);
      const [main, ...subagents] = glassbox.sessions.compactions(opened, { repoRoot });
      if (!main) return;
      if (opts.json) {
        outJson(io, {
          session: { id: loaded.session.id, path },
          boundaries: main.boundaries,
          compactions: main.compactions.map((c) => ({ ...c.xray, leafChosen: c.leafChosen })),
          unreached: main.unreached,
          subagents: subagents.map((s) => ({ agentId: s.agentId, path: s.path, boundaries: s.boundaries, compactions: s.compactions.map((c) => ({ ...c.xray, leafChosen: c.leafChosen })), unreached: s.unreached })),
          problems: [main, ...subagents].flatMap((h) => h.problems),
        });
        return;
      }
      const p = paint(io.color);
      const out = [p.bold(`Compactions of session ${loaded.session.id}`), `  file ${truncateLeft(path, WIDTH - 7)}`];
      out.push(...renderHistory(main, loaded.session.cwd, p, opts.all === true));
      for (const s of subagents) {
        out.push('', p.bold(`Subagent ${s.agentId ?? '?'}`) + p.dim(`  ${truncateLeft(s.path, WIDTH - 20)}`));
        out.push(...renderHistory(s, loaded.session.cwd, p, opts.all === true));
      }
      io.out(out.join('\n'));
    });
}

function renderHistory(h: CompactionHistory, cwd: string | null, p: Paint, all: boolean): string[] {
  const out: string[] = [];
  out.push('', `  ${countLine(h)}`);
  for (const u of h.unreached) out.push(p.dim(`  line ${u.line}  ${u.trigger}${u.at ? `  ·  ${u.at.replace('T', ' ').slice(0, 16)} UTC` : ''}: not shown, ${u.reason}`));
  for (const c of h.compactions) out.push('', ...renderOne(c, cwd, p, all));
  for (const problem of h.problems) out.push(`  ! ${problem.message}`);
  return out;
}

/** The one count every view gives: every compaction of the thread, and how many the live conversation went through. */
function countLine(h: CompactionHistory): string {
  if (h.boundaries === 0) return 'No compaction.';
  const all = `${h.boundaries} compaction${h.boundaries === 1 ? '' : 's'}`;
  if (h.unreached.length === 0) return `${all}, all on the live conversation.`;
  return `${all}: ${h.compactions.length} on the live conversation, ${h.unreached.length} not reached by it.`;
}

function renderOne(c: CompactionReport, cwd: string | null, p: Paint, all: boolean): string[] {
  const x = c.xray;
  const f = c.figures;
  const when = x.at ? `  ·  ${x.at.replace('T', ' ').slice(0, 16)} UTC` : '';
  const out = [p.bold(`#${x.index}  ${x.trigger}  ·  line ${x.line}${when}`)];
  const meta = x.preTokensMetadata !== null ? `; the client wrote ${humanTokens(x.preTokensMetadata)}${c.preTokensDelta !== null ? ` (${signed(c.preTokensDelta)})` : ''}` : '';
  if (c.leafChosen) out.push(p.dim(`  rebuilt  ${truncate(c.leafChosen.reason, WIDTH - 11)}`));
  out.push(`  before   ${x.preTokens !== null ? `${humanTokens(x.preTokens)} tokens reported` : 'no reported size'}${meta}`);
  const post = c.postTokens !== null ? `; the next request carried ${humanTokens(c.postTokens)}` : '';
  out.push(`  summary  ${humanTokens(x.summaryTokens)} tokens${post}`);
  if (c.instructions) out.push(`  asked    ${truncate(c.instructions, WIDTH - 11)}`);
  out.push(
    `  kept     ${humanTokens(f.keptTokens)} of ${humanTokens(f.windowTokens)} (${percent(f.keptTokens, f.windowTokens)})  ·  dropped ${humanTokens(f.droppedTokens)}` +
      `, of which dead anyway ${humanTokens(f.droppedDeadTokens)} (${percent(f.droppedDeadTokens, f.droppedTokens)})`,
  );
  if (x.reattached.length > 0) out.push(`  attached ${truncate(x.reattached.map((r) => (r.path ? relative(r.path, cwd) : r.label)).join(', '), WIDTH - 11)}`);
  if (x.dropped.length === 0) return out;
  const cols: Column[] = [
    { header: 'tokens', width: 7, align: 'right' },
    { header: 'line', width: 5, align: 'right' },
    { header: 'what', width: 40 },
    { header: 'the summary has', width: 22 },
  ];
  const shown = all ? x.dropped : x.dropped.slice(0, TOP_DROPPED);
  out.push(`  ${p.bold('dropped, largest first')}`, '  ' + p.dim(header(cols)));
  for (const d of shown) {
    const note = d.dead ? p.cls(d.class, `dead anyway (${d.class})`) : d.isError ? 'an error' : '';
    out.push('  ' + row(cols, [humanTokens(d.tokens), String(d.line), `${d.kind} ${relative(d.label, cwd)}`, summaryHas(d)]) + (note ? `  ${note}` : ''));
  }
  if (shown.length < x.dropped.length) out.push(p.dim(`  … ${x.dropped.length - shown.length} more (--all)`));
  return out;
}

/** What of a dropped item the summary holds: nothing, a base name, or some of its strings. */
function summaryHas(d: CompactionItem): string {
  const base = d.keys.find((k) => k.found === 'basename');
  if (base) return `only ${base.text.slice(base.text.lastIndexOf('/') + 1)}`;
  const some = d.keys.filter((k) => k.found === 'verbatim');
  if (some.length > 0) return truncate(some.map((k) => k.text).join(', '), 22);
  return d.keys.length === 0 ? 'nothing to look for' : 'nothing';
}

function relative(path: string, cwd: string | null): string {
  return cwd && path.startsWith(cwd + '/') ? path.slice(cwd.length + 1) : path;
}

function signed(share: number): string {
  const pct = (share * 100).toFixed(1);
  return `${share >= 0 ? '+' : ''}${pct} %`;
}
