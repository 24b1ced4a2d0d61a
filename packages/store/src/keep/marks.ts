import { dirname } from 'node:path';
import { expiryOf, type AgentRegistry, type RetentionRule } from '@glassbox/core';
import { KeptArchive, type KeptSession } from './kept-archive';
import { viewDirOf, viewPathOf } from './view';

/** When the agent's client deletes a session file, and what decided it. */
export interface RetentionMark {
  /** The file's modification time plus the clean-up period; null when the client never deletes it. */
  expiresAt: string | null;
  days: number | null;
  decidedBy: string;
}

/** A session's copy in Glassbox's archive. */
export interface KeptMark {
  /** When the newest version was kept, and how many versions there are. */
  keptAt: string;
  versions: number;
  /** The newest version holds the file as it is now (same size and modification time). */
  current: boolean;
  originalPath: string;
  /** The original is gone (this row is the archive's copy): when Glassbox saw it gone, and whether the client's clean-up was due by then. */
  gone: { noticedAt: string; byClient: boolean } | null;
}

interface Markable {
  agent: string;
  path: string;
  kind: 'session' | 'subagent';
  cwd: string | null;
  size: number;
  mtimeMs: number;
  expiresAt: string | null;
  retention: RetentionMark | null;
  kept: KeptMark | null;
}

/**
 * Adds the retention and kept marks to index rows: the client's deletion date (the agent's rule, read
 * from the settings its client reads, once per project folder and working directory per call), and
 * the session's copy in the archive, found by its original path or, for a copy in the kept view, by
 * the view path. Reads the archive's manifests only when they changed.
 */
export class RowMarks {
  private readonly archive: KeptArchive | null;
  private readonly viewDir: string | null;

  constructor(
    private readonly agents: AgentRegistry,
    archiveDir: string | null,
  ) {
    this.archive = archiveDir ? new KeptArchive(archiveDir) : null;
    this.viewDir = archiveDir ? viewDirOf(archiveDir) : null;
  }

  /** Kept sessions by original path and by view path. */
  private keptIndex(): { byOriginal: Map<string, KeptSession>; byView: Map<string, KeptSession> } {
    const byOriginal = new Map<string, KeptSession>();
    const byView = new Map<string, KeptSession>();
    if (!this.archive || !this.viewDir) return { byOriginal, byView };
    for (const s of this.archive.sessions()) {
      byOriginal.set(s.latest.original.path, s);
      if (s.gone) byView.set(viewPathOf(this.viewDir, s), s);
    }
    return { byOriginal, byView };
  }

  mark<R extends Markable>(rows: R[]): R[] {
    const { byOriginal, byView } = this.keptIndex();
    const rules = new Map<string, RetentionRule>();
    const configs = new Map<string, string>();
    for (const r of rows) {
      if (r.kind !== 'session') continue;
      const view = byView.get(r.path);
      if (view) {
        r.kept = keptMark(view, r, true);
        continue;
      }
      const kept = byOriginal.get(r.path);
      if (kept) r.kept = keptMark(kept, r, false);
      const retention = this.agents.has(r.agent) ? this.agents.byId(r.agent).locator.retention : undefined;
      if (!retention) continue;
      // A rule depends on the configuration folder and the cwd alone (AgentRetention.ruleFor): one
      // look at the settings per pair, not per row.
      const dir = dirname(r.path);
      let config = configs.get(dir);
      if (config === undefined) configs.set(dir, (config = retention.configFolderOf(r.path) ?? dir));
      const key = `${r.agent}\0${config}\0${r.cwd ?? ''}`;
      let rule = rules.get(key);
      if (rule === undefined) {
        rule = retention.ruleFor(r.path, r.cwd);
        rules.set(key, rule);
      }
      const expiry = expiryOf(r.mtimeMs, rule);
      r.expiresAt = expiry === null ? null : new Date(expiry).toISOString();
      r.retention = { expiresAt: r.expiresAt, days: rule.kind === 'deletes' ? rule.days : null, decidedBy: rule.decidedBy };
    }
    return rows;
  }
}

function keptMark(s: KeptSession, row: { size: number; mtimeMs: number }, gone: boolean): KeptMark {
  const t = s.latest.transcript;
  const due = s.latest.expiresAt;
  return {
    keptAt: s.latest.keptAt,
    versions: s.versions.length,
    current: gone || (t.bytes === row.size && Math.abs(t.mtimeMs - row.mtimeMs) < 1),
    originalPath: s.latest.original.path,
    gone: gone && s.gone ? { noticedAt: s.gone.noticedAt, byClient: due !== null && Date.parse(due) <= Date.parse(s.gone.noticedAt) } : gone ? { noticedAt: s.latest.keptAt, byClient: false } : null,
  };
}
