// Sessions of every agent in one list, each with its badge, and a session recorded on Windows whose
// working directory wraps instead of running off the header. The Codex and Gemini CLI sessions are real
// ones from the corpus, seeded into the homes the app reads (the fixture's otherAgents). No real Windows transcript is in the corpus: the Windows one is
// a real Claude Code transcript whose recorded working directory and session id are rewritten (as a
// Windows client writes them, backslashes escaped in the JSON), the way the host's attack tests derive
// theirs.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, expect, GENERATED, test } from './fixtures';

test.describe('every agent', () => {
  test.use({ otherAgents: true });
  test('Codex and Gemini CLI sessions appear beside Claude Code ones, each with its agent badge', async ({ page, app }) => {
  await page.goto(app.url);
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(Object.keys(app.scenarios).length + 2, { timeout: 30_000 });
  const badges = page.getByTestId('agent-badge');
  await expect(badges.filter({ hasText: 'Codex' })).toHaveCount(1);
  await expect(badges.filter({ hasText: 'Gemini' })).toHaveCount(1);
  await expect(badges.filter({ hasText: 'Claude Code' })).toHaveCount(Object.keys(app.scenarios).length);
  // Each opens: a badge is not just a label on a row that fails to load.
  for (const agent of ['Codex', 'Gemini']) {
    await rows.filter({ has: page.getByTestId('agent-badge').filter({ hasText: agent }) }).click();
    await expect(page.getByTestId('treemap')).toBeVisible();
  }
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ARTIFACTS, 'agents-list-1280-light.png') });
  });
});

test('a session recorded on Windows: its working directory wraps inside the header at 800 px', async ({ page, app }) => {
  const source = app.scenarios['02-gone-drift-errors']!;
  const windowsCwd = 'C:\\Users\\developer\\Documents\\projects\\inventory-tool-with-a-long-folder-name';
  const id = randomUUID();
  const text = readFileSync(join(GENERATED, '02-gone-drift-errors/transcript.jsonl'), 'utf8')
    .split(source.cwd)
    .join(JSON.stringify(windowsCwd).slice(1, -1))
    .split(source.sessionId)
    .join(id);
  const folder = join(app.projectsDir, 'C--Users-developer-Documents-projects-inventory-tool-with-a-long-folder-name');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${id}.jsonl`), text);

  await page.setViewportSize({ width: 800, height: 800 });
  await page.goto(app.url);
  const row = page.locator(`[data-testid=session-row][data-path="${join(folder, `${id}.jsonl`)}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.click();
  const line = page.getByTestId('cwd-line');
  // The project folder is not on this machine, so the header's details open by themselves to say so.
  await expect(line).toBeVisible();
  await expect(line).toContainText('C:\\Users\\developer');
  const fits = await line.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
  expect(fits.scroll).toBeLessThanOrEqual(fits.client + 1);
  expect(fits.right).toBeLessThanOrEqual(800);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ARTIFACTS, 'windows-cwd-800-light.png') });
});
