import { appendFileSync, createReadStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { validateFork } from '@glassbox/adapter-claude-code';
import type { SnapshotView } from '@glassbox/contract';
import { GENERATED, REPO_ROOT, dropFile, expect, openApp, row, shot, test } from './fixtures';

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter((l) => l !== '');
void createReadStream;

test('the browser lists the seeded sessions, grouped by project, with indexing done', async ({ page, app }) => {
  await openApp(page, app);
  for (const s of Object.values(app.scenarios)) {
    await expect(row(page, s)).toContainText(s.title.slice(0, 30));
  }
  await expect(page.getByRole('treeitem', { name: /02-gone-drift-errors\/project/ })).toBeVisible();
  // The first analysis on a fresh clone also bundles the worker code and warms the loaders: wait for
  // it to finish (a completion, not a speed check).
  await expect(page.getByRole('status')).toContainText('indexed', { timeout: 45_000 });
  // Search narrows the list; `/` focuses the search box.
  await page.keyboard.press('/');
  await page.keyboard.type('Review all source');
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await expect(row(page, app.scenarios['05-autocompact']!)).toBeVisible();
  // The row says why it matched; the status line counts matches, not "0 indexed".
  await expect(row(page, app.scenarios['05-autocompact']!).getByTestId('row-matched')).toContainText('title');
  await expect(page.getByRole('status')).toContainText('1 match among 3 sessions');
  await shot(page, '01-session-browser-search');
  await page.getByTestId('search').fill('zzzz-nothing');
  await expect(page.getByTestId('no-match')).toContainText('No session matches');
  await expect(page.getByRole('status')).toContainText('No match among 3 sessions');
  await page.getByTestId('search').fill('');
  await expect(page.getByTestId('session-row')).toHaveCount(3);
  await shot(page, '01-session-browser');
});

test('a session opens and its treemap shows segments of each class it has', async ({ page, app }) => {
  await openApp(page, app);
  const s = app.scenarios['02-gone-drift-errors']!;
  const view = await app.invoke<SnapshotView>('session:snapshot', { path: s.path });
  const classes = new Set(view.snapshot.segments.map((x) => x.class));
  // The scenario deletes one file and changes another after reading them, and re-reads a third.
  for (const k of ['live', 'gone', 'stale-drift', 'stale-superseded'] as const) expect(classes.has(k)).toBe(true);
  await row(page, s).click();
  const treemap = page.getByTestId('treemap');
  for (const k of classes) await expect(treemap.locator(`[data-class="${k}"]`).first()).toBeVisible();
  // The system prompt and tools are drawn in the context bar, not as a tile, unless asked for.
  expect(view.snapshot.context.unattributedTokens).toBeGreaterThan(0);
  await expect(treemap.locator('[data-class="unattributed"]')).toHaveCount(0);
  await expect(page.getByTestId('context-bar')).toContainText('system prompt & tools');
  await shot(page, '02-window-transcript-only');
  await page.getByTestId('toggle-unattributed').check();
  await expect(treemap.locator('[data-class="unattributed"]')).toHaveCount(1);
  await page.getByTestId('toggle-unattributed').uncheck();
  await expect(page.getByText(/tokens reported/)).toBeVisible();
  await expect(page.getByTestId('turns-chart')).toBeVisible();
  await shot(page, '02-window-treemap');
  // Group by source, then drill into a group and back out with Escape.
  await page.getByRole('button', { name: 'source', exact: true }).click();
  await expect(treemap.locator('[data-class="gone"]').first()).toBeVisible();
  await shot(page, '02-window-by-source');
  await page.getByRole('button', { name: 'class', exact: true }).click();
  await page.locator('.tm-group-label', { hasText: 'live' }).click();
  await expect(treemap.locator('[data-class="gone"]')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Drill-down' })).toContainText('live');
  await shot(page, '02-window-drilled');
  await treemap.getByRole('listbox').focus();
  await page.keyboard.press('Escape');
  await expect(treemap.locator('[data-class="gone"]').first()).toBeVisible();
});

test('clicking a dead segment shows its proof, the drift diff, and jumps to what proves it', async ({ page, app }) => {
  await openApp(page, app);
  await row(page, app.scenarios['02-gone-drift-errors']!).click();
  const treemap = page.getByTestId('treemap');
  await treemap.locator('[data-class="gone"]').first().click();
  await expect(page.getByTestId('class-badge')).toHaveText('gone');
  await expect(page.getByTestId('proof')).toContainText('docs/NOTES.md no longer exists');
  await shot(page, '03-inspector-gone');

  await treemap.locator('[data-class="stale-drift"]').first().click();
  await expect(page.getByTestId('class-badge')).toHaveText('stale · drift');
  await expect(page.getByTestId('proof')).toContainText('changed since it was read');
  await expect(page.getByTestId('diff')).toBeVisible();
  await expect(page.getByTestId('diff').locator('.add, .del').first()).toBeVisible();
  await shot(page, '03-inspector-drift');

  await treemap.locator('[data-class="stale-superseded"]').first().click();
  await expect(page.getByTestId('proof')).toContainText('A later read of');
  await page.getByTestId('jump').click();
  await expect(page.getByTestId('class-badge')).toHaveText('live');
  await expect(treemap.locator('.tm-tile.selected')).toHaveAttribute('data-class', 'live');
  await shot(page, '03-inspector-jumped');

  // Keyboard: the skip link reaches the treemap; the arrows move, the focused tile is the listbox's
  // active option (what a screen reader announces), Enter selects.
  await page.getByRole('link', { name: 'Skip to the treemap' }).focus();
  await page.keyboard.press('Enter');
  const listbox = treemap.getByRole('listbox');
  await expect(listbox).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const active = await listbox.getAttribute('aria-activedescendant');
  expect(active).toBeTruthy();
  await expect(page.locator(`#${active}`)).toHaveAttribute('role', 'option');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('inspector')).toBeVisible();
  await expect(page.locator(`#${active}`)).toHaveAttribute('aria-selected', 'true');
});

test('the fork wizard writes a fork that validates and then appears in the list', async ({ page, app }) => {
  await openApp(page, app);
  const s = app.scenarios['01-superseded-reads']!;
  const before = sha(s.path);
  await row(page, s).click();
  await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible();
  await page.keyboard.press('f');
  const wizard = page.getByTestId('fork-wizard');
  await expect(wizard).toBeVisible();
  // A modal dialog: focus is inside it, Tab stays inside, Escape closes it and gives the focus back.
  await expect(wizard.locator(':focus')).toHaveCount(1);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    await expect(wizard.locator(':focus')).toHaveCount(1);
  }
  await page.keyboard.press('Escape');
  await expect(wizard).toHaveCount(0);
  await page.getByTestId('open-fork').focus();
  await page.keyboard.press('Enter');
  await expect(wizard).toBeVisible();
  // The lossless default: the four proven classes on, `spent` (inferred) off.
  for (const k of ['gone', 'stale-drift', 'stale-superseded', 'duplicate']) await expect(page.getByTestId(`pick-${k}`)).toBeChecked();
  await expect(page.getByTestId('pick-spent')).not.toBeChecked();
  await shot(page, '04-fork-classes');
  await page.getByTestId('fork-next').click();
  // Elision is its own step, off by default.
  await expect(page.getByTestId('elide-on')).not.toBeChecked();
  await page.getByTestId('fork-next').click();
  await expect(page.getByTestId('fork-preview')).toContainText('net saved');
  // When to fork: the prompt cache's bill, from the transcript (the session ended long ago: cold).
  await expect(page.getByTestId('cache-advice')).toContainText(/The cache expired .* ago: forking now is cheaper from the first request/);
  await expect(page.getByTestId('cache-bill')).toContainText('resume the fork');
  await shot(page, '04-fork-preview');
  await page.getByTestId('fork-next').click();
  const checks = page.getByTestId('fork-checks').locator('li');
  expect(await checks.count()).toBeGreaterThan(10);
  await expect(page.getByTestId('fork-checks').locator('li[data-ok="false"]')).toHaveCount(0);
  await shot(page, '04-fork-checks');
  await page.getByTestId('fork-write').click();
  await expect(page.getByTestId('fork-written')).toBeVisible();
  const forkId = (await page.getByTestId('fork-id').textContent())?.trim() ?? '';
  expect(forkId).toMatch(/^[0-9a-f-]{36}$/);
  const forkPath = join(s.path, '..', `${forkId}.jsonl`);
  // The recorded cwd is not on this machine; the project is mapped: the command runs there and names the file.
  const mapped = join(GENERATED, '01-superseded-reads', 'project-after');
  await expect(page.getByTestId('resume-command')).toHaveText(existsSync(s.cwd) ? `cd ${s.cwd} && claude --resume ${forkId}` : `cd ${mapped} && claude --resume ${forkPath}`);
  await shot(page, '04-fork-written');

  expect(statSync(forkPath).isFile()).toBe(true);
  expect(sha(s.path)).toBe(before);
  expect(validateFork(lines(s.path), lines(forkPath)).ok).toBe(true);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('open-fork')).toBeFocused();
  const forkRow = page.locator(`[data-testid=session-row][data-session-id="${forkId}"]`);
  await expect(forkRow).toBeVisible();
  // Revealed and selected: the wizard's Done opened it, and the list brought its row into view.
  await expect(forkRow).toHaveClass(/selected/);
  await expect(forkRow).toBeInViewport();
  await expect(forkRow.locator('.tag.fork')).toBeVisible();
  await expect(forkRow.getByTestId('row-fork-of')).toContainText('fork of');
  await expect(row(page, s).getByTestId('row-forks')).toHaveText('1 fork');
  await shot(page, '04-fork-in-list');

  // The fork in the window: linked to its original, its tombstones their own class, what it will send.
  await forkRow.locator('.title-text').click();
  await expect(page.getByTestId('lineage')).toContainText('fork of');
  await expect(page.getByTestId('will-send')).toBeVisible();
  await expect(page.getByText('tokens the fork will send (estimated)')).toBeVisible();
  const tombstone = page.getByTestId('treemap').locator('[data-class="tombstone"]').first();
  await expect(tombstone).toBeVisible();
  await expect(page.getByTestId('treemap').locator('[data-class="stale-superseded"]')).toHaveCount(0);
  await page.getByTestId('fork-verify').click();
  await expect(page.getByTestId('fork-verified')).toHaveAttribute('data-ok', 'true');
  await tombstone.click();
  await expect(page.getByTestId('class-badge')).toHaveText('tombstone');
  await page.getByTestId('fork-payload').click();
  await expect(page.getByTestId('fork-payload-text')).toContainText('hash-checked');
  await shot(page, '04-fork-window');
  await page.getByTestId('fork-of').click();
  await expect(page.getByTestId('lineage')).toContainText('forks');
  await expect(page.getByTestId('fork-link')).toHaveCount(1);
});

test.describe('with no folder mapped', () => {
  test.use({ mapRepos: false });
  test('a refused mapping says why and saves nothing; a good one clears the banner and is kept', async ({ page, app }) => {
    await openApp(page, app);
    const s = app.scenarios['02-gone-drift-errors']!;
    await row(page, s).click();
    await page.getByRole('button', { name: 'Map it to a folder…' }).click();
    const folder = page.getByLabel('Folder that holds the project now');
    await folder.fill(join(app.dataDir, 'no-such-folder'));
    await page.getByRole('button', { name: 'Map', exact: true }).click();
    await expect(page.getByTestId('notice')).toContainText(`Not mapped: ${join(app.dataDir, 'no-such-folder')} is not usable as the project's folder.`);
    expect((await app.invoke<{ repoMap: Record<string, string> }>('host:info', {})).repoMap[s.cwd]).toBeUndefined();
    await folder.fill(join(GENERATED, '02-gone-drift-errors', 'project-after'));
    await page.getByRole('button', { name: 'Map', exact: true }).click();
    await expect(page.getByTestId('notice')).toHaveCount(0);
    await expect(page.getByTestId('treemap').locator('[data-class="gone"]').first()).toBeVisible();
    await shot(page, '09-mapped');
  });
});

test('a dropped transcript is inspected, from anywhere, and nothing is written', async ({ page, app }) => {
  await openApp(page, app);
  const before = readdirSync(app.projectsDir, { recursive: true }).length;
  const text = readFileSync(join(GENERATED, '03-large-outputs/transcript.jsonl'), 'utf8');
  await dropFile(page, 'dropped-session.jsonl', text);
  await expect(page.locator('.topbar .tag', { hasText: 'opened file' })).toBeVisible();
  await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible();
  await page.getByTestId('treemap').locator('[data-class="live"]').first().click();
  await expect(page.getByTestId('content')).toBeVisible();
  await expect(page.getByTestId('open-fork')).toBeDisabled();
  await shot(page, '05-dropped-file');
  expect(readdirSync(app.projectsDir, { recursive: true }).length).toBe(before);
});

test('appending a record to a session file updates its row (and the open window)', async ({ page, app }) => {
  await openApp(page, app);
  const s = app.scenarios['05-autocompact']!;
  await row(page, s).click();
  const size = row(page, s).getByTestId('row-size');
  const was = await size.textContent();
  const last = lines(s.path).pop() as string;
  // The biggest record, so the human size shown changes too.
  const biggest = lines(s.path).reduce((a, b) => (b.length > a.length ? b : a));
  appendFileSync(s.path, `${last}\n${biggest}\n`);
  await expect(row(page, s)).toHaveAttribute('data-bytes', String(statSync(s.path).size));
  await expect(size).not.toHaveText(was ?? '');
  await expect(row(page, s)).toHaveClass(/flash/);
  await shot(page, '06-live-row');
});

test('bad files get their message, and nothing is written', async ({ page, app }) => {
  await openApp(page, app);
  const before = readdirSync(app.configDir, { recursive: true }).length;
  await dropFile(page, 'diagram.png', 'not an image', 'image/png');
  await expect(page.getByTestId('notice')).toContainText('diagram.png is not a session transcript');
  await expect(page.getByTestId('notice')).toContainText('Nothing was written');
  await shot(page, '07-bad-file-png');
  // JSON lines that no agent's adapter reads (a Codex rollout is read by the Codex adapter now).
  await dropFile(page, 'notes.jsonl', '{"note":"not a transcript"}\n{"note":"nor this"}\n');
  await expect(page.getByTestId('notice')).toContainText('notes.jsonl is not a transcript of Claude Code, Codex CLI and Gemini CLI');
  // Said once, not twice.
  expect((await page.getByTestId('notice').innerText()).match(/nothing was written/gi)).toHaveLength(1);
  await shot(page, '07-bad-file-foreign');
  // A dropped Codex rollout opens as one (the Codex adapter is on the agent seam).
  const codexDir = join(REPO_ROOT, 'fixtures/corpus/public/MoonLadderStudios__MoonMind');
  const codex = readdirSync(codexDir).find((n) => n.endsWith('.jsonl')) as string;
  await dropFile(page, codex, readFileSync(join(codexDir, codex), 'utf8'));
  await expect(page.locator('.topbar .tag', { hasText: 'opened file' })).toBeVisible();
  await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible();
  await expect(page.getByTestId('notice')).toHaveCount(0);
  await shot(page, '07-dropped-codex');
  await dropFile(page, 'empty.jsonl', '');
  await expect(page.getByTestId('notice')).toContainText('empty.jsonl is empty');
  expect(readdirSync(app.configDir, { recursive: true }).length).toBe(before);
});

test.describe('with no sessions on the machine', () => {
  test.use({ scenarios: [] });
  test('the empty state says where it looked and how to point elsewhere', async ({ page, app }) => {
    await page.goto(app.url);
    const empty = page.getByTestId('empty-sessions');
    await expect(empty).toContainText('No sessions found');
    await expect(empty).toContainText(app.projectsDir);
    await expect(empty).toContainText('CLAUDE_CONFIG_DIR');
    await shot(page, '08-empty');
  });
});

test.describe('with no sessions but the bundled samples', () => {
  test.use({ scenarios: [], samples: true });
  test('sample sessions are offered, and one opens with its proofs', async ({ page, app }) => {
    await page.goto(app.url);
    const samples = page.getByTestId('sample');
    // Every generated corpus session is offered.
    const bundled = readdirSync(GENERATED).filter((n) => existsSync(join(GENERATED, n, 'manifest.json')));
    await expect(samples).toHaveCount(bundled.length);
    await shot(page, '08-empty-with-samples');
    // In plain words, not the recording's jargon.
    await expect(page.locator('[data-testid=sample][data-name="02-gone-drift-errors"]')).toHaveText('Files deleted or changed after being read');
    await expect(page.getByTestId('empty-sessions')).toContainText('Claude Code, Codex CLI or Gemini CLI');
    await page.locator('[data-testid=sample][data-name="02-gone-drift-errors"]').click();
    // Samples carry the project as it was after the session, so gone and drift are provable.
    await expect(page.getByTestId('treemap').locator('[data-class="gone"]').first()).toBeVisible();
    await expect(page.getByTestId('treemap').locator('[data-class="stale-drift"]').first()).toBeVisible();
  });
});

test.describe('with a project of two sessions', () => {
  test.use({ scenarios: ['01-superseded-reads', '06-fork-session'] });
  test('the session list works from the keyboard', async ({ page, app }) => {
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(app.url);
    // 06 holds two sessions (the client's own fork): one project header over them; 01 is alone, without one.
    await expect(page.getByTestId('session-row')).toHaveCount(3);
    await expect(page.getByTestId('project-head')).toHaveCount(1);
    await expect(row(page, app.scenarios['01-superseded-reads']!).getByTestId('row-project')).toHaveText('01-superseded-reads/project');
    await expect(page.getByTestId('agent-badge').first()).toHaveText('Claude Code');
    // The first Tab stop is the skip link.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the treemap' })).toBeFocused();
    await page.keyboard.press('/');
    // Down from the search box: into the tree, on its first session.
    await page.keyboard.press('ArrowDown');
    const tree = page.getByRole('tree');
    await expect(tree).toBeFocused();
    // The active item's attribute, read again until it holds (the key press re-renders the tree).
    const activeAttr = (name: string) => async () => page.locator(`#${await tree.getAttribute('aria-activedescendant')}`).getAttribute(name);
    await expect.poll(activeAttr('data-testid')).toBe('session-row');
    // Home, then down to the project's header (first or after the lone row, by activity).
    await page.keyboard.press('Home');
    if ((await activeAttr('data-testid')()) !== 'project-head') await page.keyboard.press('ArrowDown');
    await expect.poll(activeAttr('data-testid')).toBe('project-head');
    await expect.poll(activeAttr('aria-level')).toBe('1');
    // Left closes the project, right opens it again.
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('session-row')).toHaveCount(1);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('session-row')).toHaveCount(3);
    // Down into the project, Enter opens that session.
    await page.keyboard.press('ArrowDown');
    await expect.poll(activeAttr('aria-level')).toBe('2');
    const opened = await activeAttr('data-path')();
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-testid=session-row].selected')).toHaveAttribute('data-path', opened ?? '');
    await expect(page.getByTestId('treemap').locator('.tm-tile').first()).toBeVisible();
    // Left from a row goes up to its project.
    await tree.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(activeAttr('data-testid')).toBe('project-head');
    // One list sorted as a whole: the largest file first, whatever its project.
    await page.getByLabel('Sort sessions').selectOption('size');
    await page.getByTestId('by-project').uncheck();
    await expect(page.getByTestId('project-head')).toHaveCount(0);
    const sizes = await page.getByTestId('session-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-bytes'))));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    // By cost, dearest first.
    await page.getByLabel('Sort sessions').selectOption('cost');
    await expect(async () => {
      const costs = await page.getByTestId('row-cost').evaluateAll((els) => els.map((e) => Number((e.textContent ?? '').replace(/[^0-9.]/g, ''))));
      expect(costs.length).toBe(3);
      expect(costs).toEqual([...costs].sort((a, b) => b - a));
    }).toPass();
  });
});

test('what a response added is shown on the chart and selected in the treemap; the conversation finds and shows segments', async ({ page, app }) => {
  await openApp(page, app);
  const s = app.scenarios['02-gone-drift-errors']!;
  await row(page, s).click();
  const chart = page.getByTestId('turns-chart');
  await expect(chart).toBeVisible();
  await chart.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('chart-additions')).toContainText('+');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('treemap').locator('.tm-tile.highlighted').first()).toBeVisible();
  await expect(page.getByTestId('inspector')).toBeVisible();
  await shot(page, '10-turn-additions');

  // Conversation: find, then "show in treemap" selects the segment there; the inspector goes back.
  await page.getByTestId('tab-conversation').click();
  await page.getByTestId('conv-find').fill('NOTES.md');
  await expect(page.getByTestId('conv-matches')).toContainText(/1 of \d+/);
  // A tool call and its result are one item: the gone one may be either.
  const gone = page.locator('[data-testid=conv-item] [data-class="gone"], [data-testid=conv-item][data-class="gone"]').first();
  await gone.scrollIntoViewIfNeeded();
  await gone.locator('[data-testid=show-in-treemap]').first().click();
  await expect(page.getByTestId('tab-treemap')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('class-badge')).toHaveText('gone');
  await page.getByTestId('show-in-conversation').click();
  await expect(page.getByTestId('tab-conversation')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-class="gone"].selected').first()).toBeVisible();
  await shot(page, '11-conversation');

  // The cost panel: per model and per turn, cache writes and reads, the price table's date.
  await page.getByTestId('tab-cost').click();
  await expect(page.getByTestId('cost-total')).toContainText('$');
  await expect(page.getByTestId('price-date')).toContainText('price table of');
  await expect(page.getByTestId('cost-turns').locator('tbody tr')).not.toHaveCount(0);
});

test('the inspector can be hidden and resized', async ({ page, app }) => {
  await openApp(page, app);
  await row(page, app.scenarios['02-gone-drift-errors']!).click();
  const treemap = page.getByTestId('treemap');
  await expect(treemap.locator('.tm-tile').first()).toBeVisible();
  const before = (await treemap.boundingBox())?.width ?? 0;
  const handle = page.getByTestId('inspector-resize');
  await handle.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await treemap.boundingBox())?.width ?? 0).toBeGreaterThan(before + 60);
  await page.getByTestId('toggle-inspector').click();
  await expect(page.getByRole('complementary', { name: 'Segment inspector' })).toHaveCount(0);
  await expect.poll(async () => (await treemap.boundingBox())?.width ?? 0).toBeGreaterThan(before + 250);
});

// Without the token: see security.spec.ts.
