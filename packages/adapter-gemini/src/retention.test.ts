// Gemini CLI's clean-up rule, case by case as its `validateRetentionConfig` / `identifySessionsToDelete`
// read the merged settings (docs/gemini/format.md, "Side effects of a start").
import { describe, expect, it } from 'vitest';
import { expiryOf } from '@glassbox/core';
import { parseSettingsText, retentionPeriodMs, sessionRetentionRule, type GeminiSettingsText } from './retention';

const user = (json: unknown): GeminiSettingsText => ({ scope: 'user', file: '/h/.gemini/settings.json', text: typeof json === 'string' ? json : JSON.stringify(json) });
const workspace = (json: unknown): GeminiSettingsText => ({ scope: 'workspace', file: '/p/.gemini/settings.json', text: JSON.stringify(json) });
const system = (json: unknown): GeminiSettingsText => ({ scope: 'system', file: '/etc/gemini-cli/settings.json', text: JSON.stringify(json) });
const retention = (r: unknown) => ({ general: { sessionRetention: r } });

describe('the retention period', () => {
  it('<n><h|d|w|m>, n > 0, a month of 30 days; anything else is invalid', () => {
    expect(retentionPeriodMs('24h')).toBe(86_400_000);
    expect(retentionPeriodMs('2w')).toBe(14 * 86_400_000);
    expect(retentionPeriodMs('1m')).toBe(30 * 86_400_000);
    for (const bad of ['0d', '30', 'd', '1.5d', '30D', ' 30d', 30]) expect(retentionPeriodMs(bad), String(bad)).toBeNull();
  });
});

describe('the rule', () => {
  it('no settings: on by default, 30 days (since 0.33)', () => {
    const r = sessionRetentionRule([]);
    expect(r).toMatchObject({ kind: 'deletes', days: 30 });
    expect(r.decidedBy).toMatch(/default.*30d.*0\.33/);
  });

  it('maxAge in the user settings; workspace over user; system settings over both', () => {
    expect(sessionRetentionRule([user(retention({ maxAge: '7d' }))])).toMatchObject({ kind: 'deletes', days: 7 });
    expect(sessionRetentionRule([workspace(retention({ maxAge: '2w' })), user(retention({ maxAge: '7d' }))])).toMatchObject({ kind: 'deletes', days: 14 });
    expect(sessionRetentionRule([system(retention({ maxAge: '48h' })), workspace(retention({ maxAge: '2w' }))])).toMatchObject({ kind: 'deletes', days: 2 });
  });

  it('enabled: false turns it off; the other keys merge key by key', () => {
    expect(sessionRetentionRule([user(retention({ enabled: false }))])).toMatchObject({ kind: 'never' });
    expect(sessionRetentionRule([user(retention({ enabled: false })), workspace(retention({ enabled: true, maxAge: '3d' }))])).toMatchObject({ kind: 'deletes', days: 3 });
  });

  it('a setting the client fails to validate turns the clean-up off, saying why', () => {
    for (const r of [{ maxAge: 'forever' }, { maxAge: '12h' }, { maxCount: 0 }, { maxAge: '' }]) {
      const rule = sessionRetentionRule([user(retention(r))]);
      expect(rule.kind, JSON.stringify(r)).toBe('never');
      expect(rule.decidedBy, JSON.stringify(r)).toMatch(/disables its clean-up|neither maxAge nor maxCount/);
    }
    // Below the default minimum of a day unless the minimum is lowered too.
    expect(sessionRetentionRule([user(retention({ maxAge: '12h', minRetention: '1h' }))])).toMatchObject({ kind: 'deletes', days: 0.5 });
  });

  it('maxCount: deletion by count is said in a warning; by age only when maxAge applies', () => {
    const both = sessionRetentionRule([user(retention({ maxCount: 5 }))]);
    expect(both).toMatchObject({ kind: 'deletes', days: 30 });
    expect(both.warning).toMatch(/only the 5 most recently updated/);
    const countOnly = sessionRetentionRule([user(retention({ maxAge: null, maxCount: 5 }))]);
    expect(countOnly.kind).toBe('never');
    expect(countOnly.warning).toMatch(/only the 5/);
  });

  it('a settings file that does not parse is ignored (as the client ignores it) and reported', () => {
    const r = sessionRetentionRule([user('{ "general": ')]);
    expect(r).toMatchObject({ kind: 'deletes', days: 30 });
    expect(r.sources[0]?.problem).toMatch(/does not parse/);
  });

  it('settings with comments, as the client strips them', () => {
    expect(parseSettingsText('{ // a note\n "a": "x//y", /* b */ "c": 1 }')).toEqual({ a: 'x//y', c: 1 });
    expect(sessionRetentionRule([user('{ "general": { /* keep a week */ "sessionRetention": { "maxAge": "7d" } } }')])).toMatchObject({ kind: 'deletes', days: 7 });
  });

  it('as the real 0.61 client did on a 13-hour-old chat (harness FINDINGS §8): 2h with a 1h minimum deletes it; 2h alone is disabled; 2d keeps it', () => {
    const hours = (r: ReturnType<typeof sessionRetentionRule>) => (r.kind === 'deletes' ? r.days * 24 : Infinity);
    expect(hours(sessionRetentionRule([user(retention({ maxAge: '2h', minRetention: '1h' }))]))).toBeLessThan(13);
    expect(sessionRetentionRule([user(retention({ maxAge: '2h' }))]).kind).toBe('never');
    expect(hours(sessionRetentionRule([user(retention({ maxAge: '2d' }))]))).toBeGreaterThan(13);
  });

  it('the expiry is the file time plus maxAge', () => {
    expect(expiryOf(1_000, sessionRetentionRule([user(retention({ maxAge: '1d' }))]))).toBe(1_000 + 86_400_000);
  });
});
