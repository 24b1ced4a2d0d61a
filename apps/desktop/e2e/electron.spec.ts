// The same app through Playwright's Electron driver, where an Electron binary exists. On this machine
// none can be downloaded, and launching without one crashes the runner (docs/toolchain.md), so the check
// happens before launching and the test is skipped with that reason.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { _electron as electron } from '@playwright/test';
import { ARTIFACTS, expect, test } from './fixtures';

const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
const hasBinary = existsSync(join(electronDir, 'path.txt')) || !!process.env['ELECTRON_OVERRIDE_DIST_PATH'];
const built = existsSync(join(import.meta.dirname, '../out/main/index.js'));

test.describe('desktop app (Electron)', () => {
  test.skip(!hasBinary, 'no Electron binary (electron/path.txt missing: the download is blocked offline)');
  test.skip(!built, 'the app is not built: run `npm run build -w @glassbox/desktop` first');

  test('opens a hardened window that lists the seeded sessions', async ({ app }) => {
    const electronApp = await electron.launch({
      args: [join(import.meta.dirname, '..')],
      env: { ...process.env, CLAUDE_CONFIG_DIR: app.configDir, CODEX_HOME: join(app.dataDir, 'no-codex'), GEMINI_CLI_HOME: join(app.dataDir, 'no-gemini'), GLASSBOX_DATA_DIR: app.dataDir } as Record<string, string>,
    });
    const window = await electronApp.firstWindow();
    await expect(window.getByTestId('session-row')).toHaveCount(Object.keys(app.scenarios).length);
    const prefs = await electronApp.evaluate(({ BrowserWindow }) => {
      const w = BrowserWindow.getAllWindows()[0];
      const p = (w?.webContents as unknown as { getLastWebPreferences(): Record<string, unknown> } | undefined)?.getLastWebPreferences();
      return { contextIsolation: p?.contextIsolation, sandbox: p?.sandbox, nodeIntegration: p?.nodeIntegration };
    });
    expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    await window.screenshot({ path: join(ARTIFACTS, 'electron-window.png') });
    await electronApp.close();
  });
});
