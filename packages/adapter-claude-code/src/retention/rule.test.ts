// Each case is one the real client (2.1.197) was run on, with aged session files, and the rule says
// what it did (docs/claude-code/retention.md): which value wins, what 0 and invalid values do.
import { describe, expect, it } from 'vitest';
import { cleanupRule, readCleanupSetting, type SettingsText } from './rule';

const user = (text: string | null): SettingsText => ({ scope: 'user', file: '/cfg/settings.json', text });
const project = (text: string | null): SettingsText => ({ scope: 'project', file: '/p/.claude/settings.json', text });
const local = (text: string | null): SettingsText => ({ scope: 'local', file: '/p/.claude/settings.local.json', text });
const policy = (text: string | null): SettingsText => ({ scope: 'policy', file: '/etc/claude-code/managed-settings.json', text });

describe('cleanupRule', () => {
  it('is the default 30 days without settings', () => {
    const r = cleanupRule([user(null)]);
    expect(r).toMatchObject({ kind: 'deletes', days: 30, warning: null });
    expect(r.decidedBy).toBe("Claude Code's default of 30 days");
    expect(r.sources).toEqual([]);
  });

  it('takes the user value (user 10 deleted a 15-day-old session)', () => {
    expect(cleanupRule([user('{"cleanupPeriodDays":10}')])).toMatchObject({ kind: 'deletes', days: 10, decidedBy: 'cleanupPeriodDays 10 in /cfg/settings.json' });
  });

  it('lets project settings override the user value, and local settings the project (user 10 + project 100 kept it; user 100 + local 10 deleted it)', () => {
    expect(cleanupRule([user('{"cleanupPeriodDays":10}'), project('{"cleanupPeriodDays":100}'), local(null)])).toMatchObject({ kind: 'deletes', days: 100 });
    expect(cleanupRule([user('{"cleanupPeriodDays":100}'), project(null), local('{"cleanupPeriodDays":10}')])).toMatchObject({ kind: 'deletes', days: 10 });
  });

  it('turns the clean-up off for 0 and says what older clients do with it (0 kept a 400-day-old session)', () => {
    const r = cleanupRule([user('{"cleanupPeriodDays":0}')]);
    expect(r.kind).toBe('never');
    expect(r.decidedBy).toContain('fails the client');
    expect(r.warning).toContain('older versions read it as "keep no transcripts at all"');
    expect(r.sources).toEqual([{ file: '/cfg/settings.json', problem: 'cleanupPeriodDays 0 is not a whole number of days ≥ 1' }]);
  });

  it('turns it off for any invalid value written in a file', () => {
    for (const v of ['-1', '1.5', '"30"', 'null', 'true']) {
      expect(cleanupRule([user(`{"cleanupPeriodDays":${v}}`)]).kind, v).toBe('never');
    }
  });

  it('ignores a malformed file, says so, and assumes the default (a malformed user file naming 10 still deleted at 30 days)', () => {
    const r = cleanupRule([user('{ "cleanupPeriodDays": 10, oops')]);
    expect(r).toMatchObject({ kind: 'deletes', days: 30 });
    expect(r.decidedBy).toBe("Claude Code's default of 30 days (assumed: /cfg/settings.json could not be read)");
    expect(r.sources[0]?.problem).toMatch(/^does not parse as JSON .*; ignored, as if it were absent$/);
    expect(cleanupRule([user('[1,2]')]).sources[0]?.problem).toBe('is not a JSON object; ignored, as if it were absent');
  });

  it('turns it off when a file does not parse while another sets the value (malformed user file + project 10 kept a 40-day-old session)', () => {
    const r = cleanupRule([user('{ oops'), project('{"cleanupPeriodDays":10}'), local(null)]);
    expect(r.kind).toBe('never');
    expect(r.decidedBy).toBe('/cfg/settings.json does not parse while cleanupPeriodDays is set in /p/.claude/settings.json, and then Claude Code skips its clean-up');
  });

  it('lets a managed policy value win over everything', () => {
    expect(cleanupRule([user('{"cleanupPeriodDays":0}'), policy('{"cleanupPeriodDays":14}')])).toMatchObject({ kind: 'deletes', days: 14 });
    expect(cleanupRule([user('{"cleanupPeriodDays":100}'), policy('{"other":1}'), { ...policy('{"cleanupPeriodDays":5}'), file: '/etc/claude-code/managed-settings.d/10.json' }])).toMatchObject({
      kind: 'deletes',
      days: 5,
      decidedBy: 'cleanupPeriodDays 5 in the managed policy /etc/claude-code/managed-settings.d/10.json',
    });
  });

  it('treats an empty file as absent', () => {
    expect(readCleanupSetting(user('  \n'))).toMatchObject({ present: true, explicit: false, malformed: null });
    expect(cleanupRule([user('')])).toMatchObject({ kind: 'deletes', days: 30 });
  });
});
