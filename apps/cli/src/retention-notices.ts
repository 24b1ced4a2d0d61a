import { SHORT_RETENTION_DAYS, retentionWarning } from '@glassbox/core';
import type { SessionRow } from '@glassbox/store';
import { AGENTS } from './agents';

/**
 * What a person must hear once about their clients' clean-up, for the sessions listed: a very short
 * period or a setting some versions misread (per configuration folder), a settings file that could not
 * be read (the default was assumed), and sessions the clean-up is about to take that are not kept.
 */
export function retentionNotices(rows: readonly SessionRow[], now = Date.now()): string[] {
  const out: string[] = [];
  const folders = new Map<string, SessionRow>();
  for (const r of rows) {
    if (!r.retention || !AGENTS.registry.has(r.agent)) continue;
    const folder = AGENTS.registry.byId(r.agent).locator.retention?.configFolderOf(r.path);
    if (folder && !folders.has(folder)) folders.set(folder, r);
  }
  for (const [folder, r] of folders) {
    const rule = AGENTS.registry.byId(r.agent).locator.retention?.ruleFor(r.path, null);
    if (!rule) continue;
    const warning = retentionWarning(rule, folder);
    if (warning) out.push(warning);
    for (const s of rule.sources) if (s.problem) out.push(`${s.file} ${s.problem}; ${rule.decidedBy} is assumed`);
  }
  const shortHere = new Map<string, number>();
  for (const r of rows) {
    if (r.retention?.days && r.retention.days <= SHORT_RETENTION_DAYS && !out.some((o) => o.includes(r.retention?.decidedBy ?? '\0'))) {
      shortHere.set(r.retention.decidedBy, (shortHere.get(r.retention.decidedBy) ?? 0) + 1);
    }
  }
  for (const [why, n] of shortHere) out.push(`${n} session(s) are deleted after only a few days without changes (${why}); glassbox keep --all keeps them`);
  const soon = rows.filter((r) => !r.kept && r.expiresAt !== null && Date.parse(r.expiresAt) - now < 3 * 86_400_000);
  if (soon.length > 0) out.push(`${soon.length} session(s) not kept are due for deletion by their client within 3 days (glassbox keep --all)`);
  return out;
}
