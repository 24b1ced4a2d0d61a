// End-to-end tests in Debian's Chromium against browser mode (`glassbox ui`): each test starts its own
// server with its own CLAUDE_CONFIG_DIR (seeded from fixtures/corpus) and data folder. See e2e/fixtures.ts.
import { defineConfig } from '@playwright/test';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
