import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expiryOf, untilLabel } from '@glassbox/core';
import { ForkError, archiveDir } from '@glassbox/store/fork';
import { KeepError, KeptArchive, ensureViewCopy, findKept, isInKeptView, viewDirOf, viewPathOf, type KeptSession } from '@glassbox/store/keep';
import { AGENTS } from './agents';
import { EXIT_BAD_INPUT, EXIT_REFUSED, UsageError } from './exit-codes';
import type { CliIO } from './io';

/** The archive folder: `--archive`, else `GLASSBOX_DATA_DIR/archive` (XDG, ~/.local/share). */
export function archiveDirFor(io: CliIO, given?: string): string {
  return given ? resolve(given) : archiveDir(io.env);
}

/** A keep/restore/archive error as the CLI's contract: what does not exist is bad input (2), the rest a refusal (1). */
export function keepErrorToUsage(error: unknown): never {
  if (error instanceof KeepError) {
    const bad = error.code === 'not_kept' || error.code === 'ambiguous' || error.code === 'source_unreadable' || error.code === 'not_an_agent_session';
    throw new UsageError(error.message, bad ? EXIT_BAD_INPUT : EXIT_REFUSED);
  }
  // A write the archive refused (a full or read-only disk) says why; nothing was changed.
  if (error instanceof ForkError) throw new UsageError(error.message, EXIT_REFUSED);
  throw error;
}

/**
 * A session named on the command line that is not under any agent's roots, found in the archive:
 * its original when that is still there, else the archive's read-only copy (checked byte for byte
 * against the kept hashes, rewritten from the archive if it differs). Null when it was never kept.
 */
export function keptSessionPath(ref: string, io: CliIO): string | null {
  const dir = archiveDir(io.env);
  if (!existsSync(dir)) return null;
  let kept: KeptSession;
  try {
    kept = findKept(new KeptArchive(dir), ref);
  } catch (error) {
    if (error instanceof KeepError && error.code === 'not_kept') return null;
    return keepErrorToUsage(error);
  }
  if (existsSync(kept.latest.original.path)) return kept.latest.original.path;
  try {
    return ensureViewCopy(dir, AGENTS.registry, kept);
  } catch (error) {
    return keepErrorToUsage(error);
  }
}

/**
 * The line a session's header gets about its client's clean-up: "deleted by Claude Code in 3 days
 * (2026-12-04) · kept 2026-12-01", or for the archive's copy of a deleted one "kept — deleted by
 * Claude Code on 2026-11-28". Null when the client never deletes it and it is not kept.
 */
export function retentionLine(path: string, cwd: string | null, io: CliIO, now = Date.now()): string | null {
  const dir = archiveDir(io.env);
  const archive = existsSync(dir) ? new KeptArchive(dir) : null;
  const sessions = archive?.sessions() ?? [];
  if (isInKeptView(path)) {
    const kept = sessions.find((s) => viewPathOf(viewDirOf(dir), s) === path);
    if (!kept) return 'kept — a read-only copy from the archive';
    return `${goneLabel(kept)}; read-only copy of ${kept.latest.original.path} (glassbox restore ${kept.latest.sessionId} writes it back)`;
  }
  const agent = AGENTS.forFile(path);
  const label = agent.format.label;
  // A file outside the client's configuration folders is never cleaned: nothing to say about it.
  const inConfig = agent.locator.retention?.configFolderOf(path) ?? null;
  const rule = inConfig ? (agent.locator.retention?.ruleFor(path, cwd) ?? null) : null;
  const kept = sessions.find((s) => s.latest.original.path === path);
  const parts: string[] = [];
  if (rule) {
    let mtime: number;
    try {
      mtime = statSync(path).mtimeMs;
    } catch {
      mtime = now;
    }
    const at = expiryOf(mtime, rule);
    parts.push(at === null ? `never deleted by ${label} (${rule.decidedBy})` : `deleted by ${label} ${untilLabel(at, now)} (${new Date(at).toISOString().slice(0, 10)}; ${rule.decidedBy})`);
  }
  if (kept) parts.push(`kept ${kept.latest.keptAt.slice(0, 16).replace('T', ' ')} UTC (${kept.versions.length} version${kept.versions.length === 1 ? '' : 's'})`);
  else if (rule?.kind === 'deletes') parts.push('not kept (glassbox keep)');
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** "kept — deleted by Claude Code on 2026-11-28", or "kept — the original was removed on …" when the clean-up was not due. */
function goneLabel(kept: KeptSession): string {
  const label = AGENTS.registry.has(kept.latest.agent) ? AGENTS.registry.byId(kept.latest.agent).format.label : kept.latest.agent;
  const noticed = kept.gone?.noticedAt ?? kept.latest.keptAt;
  const due = kept.latest.expiresAt;
  const byClient = due !== null && Date.parse(due) <= Date.parse(noticed);
  return byClient ? `kept — deleted by ${label} on ${noticed.slice(0, 10)}` : `kept — the original was removed on ${noticed.slice(0, 10)}`;
}

