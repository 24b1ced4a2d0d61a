import type { IndexCatalog } from './index-catalog';
import { appendFileSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostSync, SessionsListResult } from '@glassbox/contract';
import type { EngineHost } from './host';
import { call, seededHost } from '@glassbox/test-support/host/seeded-host';
import { startUiServer, type UiServer } from './http-server';
import { seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
let server: UiServer | null = null;
let catalog: IndexCatalog | null = null;
afterEach(async () => {
  await server?.close();
  host?.close();
  seeded?.cleanup();
  server = null;
  host = null;
  catalog = null;
  seeded = null;
});

async function start(watch = false): Promise<{ server: UiServer; seeded: Seeded }> {
  seeded = seedConfigDir(['01-superseded-reads']);
  const s = seeded;
  const web = join(s.dir, 'web');
  mkdirSync(web);
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Glassbox</title>');
  host = seededHost(s, { watch, onCatalog: (c) => (catalog = c) });
  await host.start();
  server = await startUiServer({ host, staticDir: web });
  return { server, seeded: s };
}

/** The event frames of one stream, read until `until` says it has seen enough. */
function readEvents(port: number, token: string, until: (events: { event: string; data: unknown }[]) => boolean): Promise<{ event: string; data: unknown }[]> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/events', headers: { 'x-glassbox-token': token } }, (res) => {
      let buf = '';
      const events: { event: string; data: unknown }[] = [];
      res.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const m = /^event: (.*)\ndata: (.*)$/s.exec(frame);
          if (m?.[1] && m[2]) events.push({ event: m[1], data: JSON.parse(m[2]) as unknown });
        }
        if (until(events)) {
          resolve(events);
          req.destroy();
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser-mode server', () => {
  it('starts every event stream with the host state, so a stream opened after indexing ended still hears that it did', async () => {
    seeded = seedConfigDir(['01-superseded-reads', '02-gone-drift-errors']);
    const web = join(seeded.dir, 'web');
    mkdirSync(web);
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Glassbox</title>');
    host = seededHost(seeded);
    server = await startUiServer({ host, staticDir: web });
    const t = { 'x-glassbox-token': server.token };
    // The window's first list, answered before the index has looked at anything.
    const first = JSON.parse((await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}', headers: t })).body) as { value: SessionsListResult };
    expect(first.value.progress.phase).not.toBe('done');
    // Indexing ends before the stream is open: no stream was listening to any of its events.
    await host.start();
    const [hello] = await readEvents(server.port, server.token, (e) => e.length > 0);
    expect(hello?.event).toBe('host:sync');
    const sync = hello?.data as HostSync;
    expect(sync.progress.phase).toBe('done');
    expect(sync.version).toBeGreaterThan(first.value.version);
    expect(sync.jobs).toEqual([]);
    // What the window then reloads agrees with the host.
    const again = JSON.parse((await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}', headers: t })).body) as { value: SessionsListResult };
    expect(again.value.version).toBe(sync.version);
    expect(again.value.sessions).toHaveLength(2);
  });

  it('gives a stream that reconnects the state as it is then, and every later event after it', async () => {
    const { server, seeded } = await start(true);
    const path = seeded.sessions['01-superseded-reads'] as string;
    await (catalog as IndexCatalog).watching();
    const before = (await readEvents(server.port, server.token, (e) => e.length > 0))[0]?.data as HostSync;
    // A change while no stream is open, then a new stream.
    const changed = new Promise<void>((resolve) => {
      const off = (host as EngineHost).onEvent((event) => {
        if (event !== 'session:changed') return;
        off();
        resolve();
      });
    });
    const last = readFileSync(path, 'utf8').trimEnd().split('\n').pop() as string;
    appendFileSync(path, last + '\n');
    await changed;
    const [hello] = await readEvents(server.port, server.token, (e) => e.length > 0);
    expect(hello?.event).toBe('host:sync');
    expect((hello?.data as HostSync).version).toBeGreaterThan(before.version);
  });

  it('prints a 127.0.0.1 URL with its token, and refuses every API request without it', async () => {
    const { server } = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    expect((await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}' })).status).toBe(403);
    expect((await call(server.port, '/api/events')).status).toBe(403);
    const wrong = await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}', headers: { 'x-glassbox-token': 'x'.repeat(server.token.length) } });
    expect(wrong.status).toBe(403);
  });

  it('serves the page with a strict CSP, sets no token cookie, and clears the one earlier builds set', async () => {
    const { server } = await start();
    const page = await call(server.port, `/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/^glassbox_token=; Max-Age=0;/);
    expect(cookie).not.toContain(server.token);
  });

  it('checks Host and Origin (DNS rebinding, cross-site requests)', async () => {
    const { server } = await start();
    const t = { 'x-glassbox-token': server.token };
    expect((await call(server.port, '/', { headers: { ...t, host: 'evil.example:80' } })).status).toBe(421);
    const cross = await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}', headers: { ...t, origin: 'http://evil.example' } });
    expect(cross.status).toBe(403);
    const same = await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}', headers: { ...t, origin: `http://127.0.0.1:${server.port}` } });
    expect(same.status).toBe(200);
  });

  it('answers invoke channels with results, and bad input with errors, never a stack trace', async () => {
    const { server, seeded } = await start();
    const t = { 'x-glassbox-token': server.token };
    const list = JSON.parse((await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}', headers: t })).body) as { ok: boolean; value: { sessions: { path: string }[] } };
    expect(list.ok).toBe(true);
    expect(list.value.sessions.map((s) => s.path)).toEqual([seeded.sessions['01-superseded-reads']]);
    const notJson = JSON.parse((await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{', headers: t })).body) as { ok: boolean; error: { code: string } };
    expect(notJson.error.code).toBe('bad_args');
    const unknown = JSON.parse((await call(server.port, '/api/invoke/fs:read', { method: 'POST', body: '{}', headers: t })).body) as { ok: boolean; error: { code: string } };
    expect(unknown.error.code).toBe('unknown_channel');
  });

  it('pushes session:changed over server-sent events when a session grows', async () => {
    const { server, seeded } = await start(true);
    const path = seeded.sessions['01-superseded-reads'] as string;
    await (catalog as IndexCatalog).watching();
    const frame = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { 'x-glassbox-token': server.token } }, (res) => {
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
          const m = /event: session:changed\ndata: (.*)\n\n/.exec(buf);
          if (m?.[1]) {
            resolve(m[1]);
            req.destroy();
          }
        });
        // The stream is open (its headers came) and the watcher is watching: the append is seen.
        const last = readFileSync(path, 'utf8').trimEnd().split('\n').pop() as string;
        appendFileSync(path, last + '\n');
      });
      req.on('error', reject);
      req.end();
    });
    const change = JSON.parse(frame) as { path: string; reason: string; row: { bytes: number } };
    expect(change.path).toBe(path);
    expect(change.reason).toBe('appended');
    expect(change.row.bytes).toBe(readFileSync(path).length);
  });
});
