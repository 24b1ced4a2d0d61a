import { describe, expect, it } from 'vitest';
import { retentionLabel } from './retention-labels';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const retention = (expiresAt: string | null) => ({ client: 'Claude Code', expiresAt, decidedBy: 'cleanupPeriodDays 10 in ~/.claude/settings.json' });
const kept = (current: boolean, gone: { noticedAt: string; byClient: boolean } | null = null) => ({ keptAt: '2026-11-30T09:00:00.000Z', versions: 2, current, originalPath: '/h/.claude/projects/-p/a.jsonl', gone });

describe('retentionLabel', () => {
  it('says when the client deletes a session, and warns when that is soon and it is not kept', () => {
    expect(retentionLabel(retention('2026-12-04T13:00:00.000Z'), null, NOW)).toMatchObject({ text: 'deleted by Claude Code in 3 days', tone: 'warn' });
    expect(retentionLabel(retention('2027-01-04T13:00:00.000Z'), null, NOW)).toMatchObject({ text: 'deleted by Claude Code in 34 days', tone: 'plain' });
    expect(retentionLabel(retention('2026-11-30T13:00:00.000Z'), null, NOW)?.text).toBe('deleted by Claude Code overdue');
  });

  it('says it is kept, and whether it changed since', () => {
    expect(retentionLabel(retention('2026-12-04T13:00:00.000Z'), kept(true), NOW)).toMatchObject({ text: 'deleted by Claude Code in 3 days · kept', tone: 'kept' });
    expect(retentionLabel(retention('2026-12-04T13:00:00.000Z'), kept(false), NOW)).toMatchObject({ text: 'deleted by Claude Code in 3 days · kept (changed since)', tone: 'warn' });
    expect(retentionLabel(retention(null), kept(true), NOW)).toMatchObject({ text: 'kept', tone: 'kept' });
    expect(retentionLabel(retention(null), null, NOW)).toBeNull();
    expect(retentionLabel(null, null, NOW)).toBeNull();
  });

  it('marks the archive copy of a deleted session with the day it went', () => {
    expect(retentionLabel(retention(null), kept(true, { noticedAt: '2026-11-28T08:00:00.000Z', byClient: true }), NOW)?.text).toBe('kept — deleted by Claude Code on 2026-11-28');
    expect(retentionLabel(null, kept(true, { noticedAt: '2026-11-28T08:00:00.000Z', byClient: false }), NOW)?.text).toBe('kept — the original was removed on 2026-11-28');
  });
});
