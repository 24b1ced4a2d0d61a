// Undo that undoes: a fork undone from the window is asked about first, then moved with its side files
// into the archive; the project folder is as it was before the fork, the list has one row again, and
// `glassbox restore` brings it back.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT, expect, row, shot, test } from './fixtures';

test.use({ scenarios: ['03-large-outputs'] });

test('Undo asks, then takes the fork off the disk: the folder as before the fork, one row, the original opened', async ({ page, app }) => {
  const s = app.scenarios['03-large-outputs']!;
  const folder = dirname(s.path);
  const before = readdirSync(folder, { recursive: true }).map(String).sort();
  const written = await app.invoke<{ sessionId: string; path: string }>('fork:write', { path: s.path, classes: ['gone', 'stale-drift', 'stale-superseded', 'duplicate'] });
  expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(before.length);
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(app.url);
  const forkRow = page.locator(`[data-testid=session-row][data-session-id="${written.sessionId}"]`);
  await expect(forkRow).toBeVisible();
  await forkRow.locator('.title-text').click();
  await expect(page.getByTestId('lineage')).toContainText('fork of');

  // Asked first; "Keep it" (or Esc) leaves everything as it was.
  await page.getByTestId('fork-undo').click();
  await expect(page.getByTestId('undo-confirm')).toContainText('Undo this fork?');
  await expect(page.getByTestId('undo-confirm-yes')).toBeFocused();
  await shot(page, 'undo-confirm');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('undo-confirm')).toHaveCount(0);
  expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(before.length);

  await page.getByTestId('fork-undo').click();
  await page.getByTestId('undo-confirm-yes').click();
  await expect(page.getByTestId('notice')).toContainText(`Fork ${written.sessionId.slice(0, 8)} undone`);
  await expect(page.getByTestId('notice')).toContainText(`glassbox restore ${written.sessionId}`);
  // The project folder is as it was before the fork; the list has the original alone, and it is open.
  expect(readdirSync(folder, { recursive: true }).map(String).sort()).toEqual(before);
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await expect(row(page, s)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('lineage')).toHaveCount(0);
  await shot(page, 'undo-done');

  // Recoverable: `glassbox restore <fork>` writes it back where it was, side files and all.
  const cli = spawnSync(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/glassbox.mjs'), 'restore', written.sessionId], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: app.configDir, CODEX_HOME: join(app.dataDir, '..', 'codex'), GLASSBOX_DATA_DIR: app.dataDir },
    encoding: 'utf8',
  });
  expect(cli.status, cli.stderr).toBe(0);
  expect(existsSync(written.path)).toBe(true);
  expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(before.length);
});
