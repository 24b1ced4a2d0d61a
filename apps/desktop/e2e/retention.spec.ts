// The retention guard as a person meets it in the window: the client's deletion date on the row and in
// the header, one warning about a very short setting, Keep, the archive's copy of a session the client
// deleted (its files removed here as the client removes them; the real client does it in
// scripts/retention/retention-e2e.ts), Restore, and the "keep every session automatically" setting.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openApp, row, shot, test } from './fixtures';

test.use({ scenarios: ['04-subagent-compact-multiturn'] });

test('keep a session, find it again after the client deleted it, and restore it', async ({ page, app }) => {
  writeFileSync(join(app.configDir, 'settings.json'), '{"cleanupPeriodDays": 5}');
  const s = app.scenarios['04-subagent-compact-multiturn']!;
  const original = readFileSync(s.path);
  await openApp(page, app);
  await expect(page.getByTestId('retention-warning')).toContainText('sessions are deleted after only 5 days');
  await expect(row(page, s).getByTestId('retention-mark')).toHaveText(/deleted by Claude Code in 4 days/);
  await expect(row(page, s).getByTestId('retention-mark')).toHaveAttribute('data-tone', 'warn');

  await row(page, s).click();
  const line = page.getByTestId('keep-line');
  await expect(line.getByTestId('retention-mark')).toHaveText(/deleted by Claude Code in 4 days/);
  await line.getByTestId('keep').click();
  await expect(line.getByTestId('keep-outcome')).toContainText('Kept:');
  await expect(line.getByTestId('retention-mark')).toHaveText(/· kept$/);
  await expect(row(page, s).getByTestId('retention-mark')).toHaveAttribute('data-tone', 'kept');
  await shot(page, '20-retention-kept');

  // What the client's clean-up removes: the watcher replaces the row by the archive's copy.
  rmSync(s.path);
  rmSync(s.path.replace(/\.jsonl$/, ''), { recursive: true });
  const copy = page.getByTestId('session-row').filter({ hasText: 'kept — the original was removed on' });
  await expect(copy).toHaveCount(1);
  await expect(row(page, s)).toHaveCount(0);
  await copy.click();
  await expect(page.getByTestId('open-fork')).toBeDisabled();
  await expect(page.getByTestId('treemap')).toBeVisible();
  await shot(page, '21-retention-archive-copy');
  await page.getByTestId('restore').click();
  await expect(page.getByTestId('notice')).toContainText(`Restored to ${s.path}.`);
  await expect(page.getByTestId('notice')).toContainText('Resume it with:');
  expect(existsSync(s.path) && readFileSync(s.path).equals(original)).toBe(true);
  await expect(row(page, s)).toHaveCount(1);
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  // Restored files are new: kept again as they are.
  await expect(row(page, s).getByTestId('retention-mark')).toHaveText(/deleted by Claude Code in 4 days · kept$/);
  await shot(page, '22-retention-restored');

  await page.getByTestId('auto-keep').check();
  await expect(page.getByTestId('auto-keep')).toBeChecked();
  await expect.poll(() => (existsSync(join(app.dataDir, 'settings.json')) ? readFileSync(join(app.dataDir, 'settings.json'), 'utf8') : '')).toContain('"autoKeep": true');
});
