import { describe, expect, it } from 'vitest';
import { expiringSoon, projectRetentionLabel, retentionLabel, rowRetentionLabel } from './retention-labels';

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

describe('one note per project, one banner for the list', () => {
  const rows = [
    { path: '/a', retention: retention('2026-12-20T13:00:00.000Z'), kept: null },
    { path: '/b', retention: retention('2026-12-04T13:00:00.000Z'), kept: kept(true) },
    { path: '/c', retention: retention('2026-12-10T13:00:00.000Z'), kept: null },
  ];
  it('rows show only what sets them apart; the header says when the next one goes, not counting kept ones', () => {
    expect(rowRetentionLabel(rows[0]!.retention, null, NOW)).toBeNull();
    expect(rowRetentionLabel(rows[1]!.retention, rows[1]!.kept, NOW)?.tone).toBe('kept');
    expect(rowRetentionLabel(retention('2026-12-03T13:00:00.000Z'), null, NOW)?.tone).toBe('warn');
    expect(projectRetentionLabel(rows, NOW)).toMatchObject({ text: 'next deleted by Claude Code in 9 days', tone: 'plain' });
    expect(projectRetentionLabel([rows[1]!], NOW)).toBeNull();
  });
  it('counts the sessions deleted within the week that are not kept as they are', () => {
    const soon = [...rows, { path: '/d', retention: retention('2026-12-02T13:00:00.000Z'), kept: kept(false) }, { path: '/e', retention: retention('2026-12-03T13:00:00.000Z'), kept: null }];
    expect(expiringSoon(soon, NOW).map((r) => r.path)).toEqual(['/d', '/e']);
  });
});
