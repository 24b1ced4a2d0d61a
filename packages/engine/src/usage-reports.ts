import type { AgentRegistry, ReplyTotals } from '@glassbox/core';
import type { SessionRow, UsageHour } from '@glassbox/store';

/** How a cost report groups its figures (ccusage's `daily`, `monthly`, `session`, and by project and model). */
export type UsageGrouping = 'day' | 'month' | 'project' | 'session' | 'model';
export const USAGE_GROUPINGS: readonly UsageGrouping[] = ['day', 'month', 'project', 'session', 'model'];

/** The session facts a report needs, from the index's rows. */
export interface UsageSession {
  path: string;
  agent: string;
  project: string;
  cwd: string | null;
  title: string | null;
  lastActivity: string;
  /** Every line was read (a session only listed so far is not yet known to report nothing). */
  summarised: boolean;
}

/** What a report is made from: the index (SessionIndex satisfies it with its usageHours and sessions). */
export interface UsageSource {
  usageHours(): UsageHour[];
  sessions(): UsageSession[];
  /** Each agent's dated price table. */
  priceTables(): { agent: string; asOf: string; source: string }[];
}

export interface UsageFigures extends ReplyTotals {
  sessions: number;
  models: string[];
}

export interface UsageRow extends UsageFigures {
  /** The group: '2026-11-30', '2026-11', a project's folder, a session's path, a model. */
  key: string;
  label: string;
  /** by session: the usage the transcript reports; false for a session that reports none ("not reported", never $0). */
  reported: boolean;
}

export interface UsageReport {
  by: UsageGrouping;
  /** The zone days and months are counted in. */
  timeZone: string;
  rows: UsageRow[];
  total: UsageFigures;
  /** Sessions whose transcripts report no usage at all (legacy Codex rollouts): not priced, not in the total. */
  notReported: number;
  priceTables: { agent: string; asOf: string; source: string }[];
}

export interface UsageQuery {
  by: UsageGrouping;
  /** An IANA zone; default the machine's. Days and months of half-hour zones are counted by whole hours. */
  timeZone?: string;
  /** Only usage on or after this day (YYYY-MM-DD, in the zone). */
  since?: string;
}

/**
 * Cost reports over every indexed session, as ccusage makes them: sums of the index's hourly usage by
 * day, month, project, session or model. A message counts on the day it was answered (a session
 * spanning midnight is split); a session with no reported usage is counted apart, never as $0.
 */
export function usageReport(source: UsageSource, q: UsageQuery): UsageReport {
  const timeZone = q.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const dayOf = dayFormatter(timeZone);
  const sessions = new Map(source.sessions().map((s) => [s.path, s]));
  const groups = new Map<string, { row: UsageRow; paths: Set<string> }>();
  const paths = new Set<string>();
  const total = zero();
  const models = new Set<string>();
  const hours = source.usageHours();
  const reporting = new Set(hours.map((h) => h.sessionPath));
  for (const h of hours) {
    const s = sessions.get(h.sessionPath);
    if (!s) continue;
    const day = h.hour === 'unknown' ? 'unknown' : dayOf(h.hour);
    if (q.since && (day === 'unknown' || day < q.since)) continue;
    const [key, label] = groupOf(q.by, h, s, day);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { row: { key, label, reported: true, ...zero() }, paths: new Set() }));
    add(g.row, h);
    g.paths.add(s.path);
    if (!g.row.models.includes(h.model)) g.row.models.push(h.model);
    add(total, h);
    paths.add(s.path);
    models.add(h.model);
  }
  const rows = [...groups.values()].map(({ row, paths: p }) => ({ ...row, sessions: p.size, models: row.models.sort() }));
  let notReported = 0;
  for (const s of sessions.values()) {
    if (!s.summarised || reporting.has(s.path)) continue;
    if (q.since && s.lastActivity.slice(0, 10) < q.since) continue;
    notReported++;
    if (q.by === 'session') rows.push({ key: s.path, label: sessionLabel(s), reported: false, ...zero(), sessions: 1 });
  }
  rows.sort((a, b) => (q.by === 'day' || q.by === 'month' ? a.key.localeCompare(b.key) : b.cost - a.cost || a.key.localeCompare(b.key)));
  return { by: q.by, timeZone, rows, total: { ...total, sessions: paths.size, models: [...models].sort() }, notReported, priceTables: source.priceTables() };
}

function groupOf(by: UsageGrouping, h: UsageHour, s: UsageSession, day: string): [string, string] {
  switch (by) {
    case 'day':
      return [day, day];
    case 'month':
      return [day === 'unknown' ? day : day.slice(0, 7), day === 'unknown' ? day : day.slice(0, 7)];
    case 'project':
      return [s.cwd ?? s.project, s.cwd ?? s.project];
    case 'session':
      return [s.path, sessionLabel(s)];
    case 'model':
      return [h.model, h.model || '(no model recorded)'];
  }
}

/** The session's title, else its project: never a dash. */
function sessionLabel(s: UsageSession): string {
  const t = s.title?.replace(/\s+/g, ' ').trim();
  return t ? t : `(untitled) ${s.cwd ?? s.project}`;
}

function zero(): UsageFigures {
  return { sessions: 0, messages: 0, input: 0, output: 0, cacheCreation: 0, cacheRead: 0, cost: 0, unpriced: 0, models: [] };
}

function add(f: UsageFigures, h: UsageHour): void {
  f.messages += h.messages;
  f.input += h.input;
  f.output += h.output;
  f.cacheCreation += h.cacheCreation;
  f.cacheRead += h.cacheRead;
  f.cost += h.cost;
  f.unpriced += h.unpriced;
}

/** 'YYYY-MM-DDTHH' (UTC) → the day in the zone, 'YYYY-MM-DD'. */
function dayFormatter(timeZone: string): (hour: string) => string {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const cache = new Map<string, string>();
  return (hour) => {
    let d = cache.get(hour);
    if (d === undefined) {
      d = f.format(new Date(`${hour}:30:00Z`));
      cache.set(hour, d);
    }
    return d;
  };
}

/** The index as a report's source: its sessions (not subagent files), their hourly usage, the agents' price tables. */
export function indexUsageSource(index: { usageHours(): UsageHour[]; list(q: { includeSubagents?: boolean }): SessionRow[] }, agents: AgentRegistry): UsageSource {
  return {
    usageHours: () => index.usageHours(),
    sessions: () =>
      index
        .list({})
        .filter((r) => r.kind === 'session')
        .map((r) => ({ path: r.path, agent: r.agent, project: r.project, cwd: r.cwd, title: r.title ?? r.firstPrompt, lastActivity: r.lastActivity, summarised: r.stage === 'summarised' || r.stage === 'analysed' })),
    priceTables: () => agents.agents.map((a) => ({ agent: a.format.id, asOf: a.format.prices.asOf, source: a.format.prices.source })),
  };
}
