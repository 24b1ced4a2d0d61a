// Browser mode's token in a real browser (Debian's Chromium): it never becomes a cookie, so another
// server on 127.0.0.1 (any port: cookies ignore ports) never receives it; it leaves the address bar
// at once; a reload keeps working; without it the page says what to do and the API refuses.
// The HTTP-level attacks (paths, oracles, Host/Origin, bodies) are in packages/host/src/attacks.test.ts.
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, openApp, row, test } from './fixtures';

/** A plain server on another local port that records what browsers send it. */
async function otherLocalServer(): Promise<{ port: number; seen: IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>someone else</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, seen, close: () => new Promise((r) => server.close(() => r())) };
}

test('the token never reaches another local port, and leaves the address bar at once', async ({ page, app }) => {
  const other = await otherLocalServer();
  try {
    await openApp(page, app);
    expect(page.url()).not.toContain('token=');
    expect(await page.evaluate(() => document.cookie)).not.toContain(app.token);
    await page.goto(`http://127.0.0.1:${other.port}/`);
    await expect(page).toHaveTitle('someone else');
    expect(other.seen.length).toBeGreaterThan(0);
    for (const h of other.seen) expect(h.cookie ?? '').not.toContain(app.token);
    expect(JSON.stringify(await page.context().cookies())).not.toContain(app.token);
  } finally {
    await other.close();
  }
});

test('live updates arrive through the token-carrying event stream, and survive a reload', async ({ page, app }) => {
  await openApp(page, app);
  await page.reload();
  await expect(page.getByTestId('session-row')).toHaveCount(Object.keys(app.scenarios).length);
  const s = app.scenarios['01-superseded-reads']!;
  const last = readFileSync(s.path, 'utf8').trimEnd().split('\n').pop() as string;
  appendFileSync(s.path, `${last}\n`);
  await expect(row(page, s)).toHaveAttribute('data-bytes', String(statSync(s.path).size));
});

test('without the token the page says what to do, and the API refuses', async ({ page, app }) => {
  const origin = new URL(app.url).origin;
  await page.goto(origin + '/');
  await expect(page.getByTestId('notice')).toContainText('This page is not authorised');
  await expect(page.getByTestId('session-row')).toHaveCount(0);
  const status = await page.evaluate(async () => (await fetch('/api/invoke/sessions:list', { method: 'POST', body: '{}' })).status);
  expect(status).toBe(403);
});
