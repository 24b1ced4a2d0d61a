import { untilLabel } from '@glassbox/core';
import type { KeptSession } from '@glassbox/engine';
import { AGENTS } from './agents';
import { glassboxFor } from './engine';
import type { CliIO } from './io';

/**
 * A session named on the command line that is not under any agent's roots, found in the archive:
 * its original when that is still there, else the archive's read-only copy (checked byte for byte
 * against the kept hashes, rewritten from the archive if it differs). Null when it was never kept.
 */
export function keptSessionPath(ref: string, io: CliIO): string | null {
  return glassboxFor(io).keeping.keptPath(ref);
}

/**
 * The line a session's header gets about its client's clean-up: "deleted by Claude Code in 3 days
 * (2026-12-04) · kept 2026-12-01", or for the archive's copy of a deleted one "kept — deleted by
 * Claude Code on 2026-11-28". Null when the client never deletes it and it is not kept.
 */
export function retentionLine(path: string, cwd: string | null, io: CliIO, now = Date.now()): string | null {
  const facts = glassboxFor(io).keeping.retention(path, cwd, now);
  if (facts.inKeptView) {
    if (!facts.kept) return 'kept — a read-only copy from the archive';
    return `${goneLabel(facts.kept)}; read-only copy of ${facts.kept.latest.original.path} (glassbox restore ${facts.kept.latest.sessionId} writes it back)`;
  }
  const parts: string[] = [];
  const { rule, kept, client } = facts;
  if (rule) {
    const at = facts.expiresAt;
    parts.push(at === null ? `never deleted by ${client} (${rule.decidedBy})` : `deleted by ${client} ${untilLabel(at, now)} (${new Date(at).toISOString().slice(0, 10)}; ${rule.decidedBy})`);
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
