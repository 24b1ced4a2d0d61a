// The attacks browser mode must survive, each played for real against a real `startUiServer` over
// HTTP: a stolen cookie, paths outside what the person opened, file-existence and content oracles,
// and the defences that held before (token, Host and Origin checks, traversal, oversized bodies).
// See SECURITY.md for the model these tests pin.
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileOpened, ForkWritten, SnapshotView } from '@glassbox/contract';
import type { EngineHost } from './host';
import { call, seededHost } from '@glassbox/test-support/host/seeded-host';
import { startUiServer, type UiServer } from './http-server';
import { GENERATED, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

const CLASSES = ['gone', 'stale-drift', 'stale-superseded', 'duplicate'];

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
let server: UiServer | null = null;
afterEach(async () => {
  await server?.close();
  host?.close();
  seeded?.cleanup();
  server = null;
  host = null;
  seeded = null;
});

interface Started {
  server: UiServer;
  seeded: Seeded;
  /** A copy of a real session outside every projects root. */
  outside: string;
}

async function start(mode: 'browser' | 'electron' = 'browser'): Promise<Started> {
  seeded = seedConfigDir(['02-gone-drift-errors']);
  const s = seeded;
  const outsideDir = join(s.dir, 'elsewhere');
  cpSync(join(GENERATED, '01-superseded-reads/claude-project'), outsideDir, { recursive: true });
  const outside = join(outsideDir, readdirSync(outsideDir).find((n) => n.endsWith('.jsonl')) as string);
  const web = join(s.dir, 'web');
  mkdirSync(web);
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Glassbox</title>');
  writeFileSync(join(s.dir, 'secret.txt'), 'not for the web');
  host = seededHost(s, { mode });
  await host.start();
  server = await startUiServer({ host, staticDir: web });
  return { server, seeded: s, outside };
}

interface Answer<T> {
  status: number;
  ok: boolean;
  value: T;
  error: { code: string; message: string };
}

async function invoke<T = unknown>(server: UiServer, channel: string, args: unknown, headers: Record<string, string> = { 'x-glassbox-token': server.token }): Promise<Answer<T>> {
  const r = await call(server.port, `/api/invoke/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(args) });
  return { status: r.status, ...(JSON.parse(r.body) as { ok: boolean; value: T; error: { code: string; message: string } }) };
}

const jsonlIn = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort();

describe('the token', () => {
  it('is never a cookie: the page sets none, and a request carrying only the cookie is refused', async () => {
    const { server } = await start();
    const page = await call(server.port, `/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['set-cookie'] ?? '')).not.toContain(server.token);
    const cookieOnly = await call(server.port, '/api/invoke/host:info', { method: 'POST', body: '{}', headers: { cookie: `glassbox_token=${server.token}` } });
    expect(cookieOnly.status).toBe(403);
    const eventsByCookie = await call(server.port, '/api/events', { headers: { cookie: `glassbox_token=${server.token}` } });
    expect(eventsByCookie.status).toBe(403);
    // Nor does it travel in the query string to the API.
    expect((await call(server.port, `/api/invoke/host:info?token=${server.token}`, { method: 'POST', body: '{}' })).status).toBe(403);
  });

  it('no token, a wrong one of the same length, or of another length: refused, and the answer names no data', async () => {
    const { server } = await start();
    for (const headers of [{}, { 'x-glassbox-token': 'x'.repeat(server.token.length) }, { 'x-glassbox-token': server.token.slice(1) }]) {
      const r = await call(server.port, '/api/invoke/sessions:list', { method: 'POST', body: '{}', headers });
      expect(r.status).toBe(403);
      expect(r.body).not.toContain('projects');
    }
    expect((await invoke(server, 'host:info', {})).ok).toBe(true);
  });
});

describe('requests from elsewhere', () => {
  it('refuses a foreign Host (DNS rebinding) and a foreign Origin (cross-site), even with the token', async () => {
    const { server } = await start();
    const t = { 'x-glassbox-token': server.token };
    expect((await call(server.port, '/', { headers: { host: 'evil.example' } })).status).toBe(421);
    expect((await call(server.port, '/api/invoke/host:info', { method: 'POST', body: '{}', headers: { ...t, host: `evil.example:${server.port}` } })).status).toBe(421);
    expect((await call(server.port, '/api/invoke/host:info', { method: 'POST', body: '{}', headers: { ...t, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await call(server.port, '/api/invoke/host:info', { method: 'POST', body: '{}', headers: { ...t, origin: `http://127.0.0.1:${server.port + 1}` } })).status).toBe(403);
    expect((await call(server.port, '/api/invoke/host:info', { method: 'POST', body: '{}', headers: { ...t, origin: 'null' } })).status).toBe(403);
  });
});

describe('malformed and oversized requests', () => {
  it('answers a malformed path with 400, and keeps serving', async () => {
    const { server } = await start();
    const t = { 'x-glassbox-token': server.token };
    for (const path of ['/%ZZ', '/%E0%A4%A', '/api/invoke/%ZZ', '/a%00b']) {
      const r = await call(server.port, path, { method: path.startsWith('/api') ? 'POST' : 'GET', headers: t, body: path.startsWith('/api') ? '{}' : '' });
      expect(r.status, path).toBe(400);
      expect(r.body).not.toMatch(/at .*\.ts:\d+/);
    }
    // A request line Node itself cannot parse gets a 400 too, not a silent hang-up.
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /a b c\r\n\r\n'));
      let got = '';
      socket.on('data', (c) => (got += c.toString()));
      socket.on('end', () => resolve(got));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await call(server.port, '/')).status).toBe(200);
  });

  it('never serves a file outside the renderer folder (plain, encoded and double-dot traversal)', async () => {
    const { server } = await start();
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/web/../../secret.txt']) {
      const r = await call(server.port, path, { headers: { 'x-glassbox-token': server.token } });
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('not for the web');
    }
  });

  it('refuses a body over the limit without reading it all, and keeps serving', async () => {
    const { server } = await start();
    const declared = await call(server.port, '/api/invoke/host:info', { method: 'POST', headers: { 'x-glassbox-token': server.token, 'content-length': String(200 * 1024 * 1024) } });
    expect(declared.status).toBe(413);
    // Chunked, so only the bytes count: 129 MB sent in 1 MB pieces until the server says stop.
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/api/invoke/host:info', method: 'POST', headers: { 'x-glassbox-token': server.token } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' || (e as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(e)));
      const piece = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 129 && !req.destroyed) {
          sent++;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        if (!req.destroyed) req.end();
      };
      pump();
    });
    expect(streamed).toBe(413);
    expect((await invoke(server, 'host:info', {})).ok).toBe(true);
  });
});

describe('paths: only the projects roots and what the person opened', () => {
  it('refuses to write a fork beside a session outside every root, and writes nothing there', async () => {
    const { server, outside } = await start();
    const dir = join(outside, '..');
    const before = jsonlIn(dir);
    const r = await invoke(server, 'fork:write', { path: outside, classes: CLASSES });
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('refused');
    expect(jsonlIn(dir)).toEqual(before);
    for (const channel of ['session:snapshot', 'fork:preview']) {
      const other = await invoke(server, channel, channel === 'fork:preview' ? { path: outside, classes: CLASSES } : { path: outside });
      expect(other.error?.code, channel).toBe('refused');
    }
    const detail = await invoke(server, 'segment:detail', { path: outside, segmentId: 'x:0' });
    expect(detail.error.code).toBe('refused');
  });

  it('refuses relative paths, whatever the server’s working directory', async () => {
    const { server, seeded } = await start();
    const inside = seeded.sessions['02-gone-drift-errors'] as string;
    const rel = join('..', '..', ...inside.split('/').filter(Boolean).slice(-4));
    for (const path of [rel, inside.split('/').pop() as string, `./${inside.split('/').pop() as string}`]) {
      const r = await invoke(server, 'session:snapshot', { path });
      expect(r.ok, path).toBe(false);
      expect(r.error.code).toBe('bad_args');
    }
    const map = await invoke(server, 'repo:map', { cwd: '/tmp/x', folder: 'project-after' });
    expect(map.error.code).toBe('bad_args');
  });

  it('is no file-existence oracle: an existing and a missing path outside the roots get the same answer', async () => {
    const { server, outside, seeded } = await start();
    const existing = await invoke(server, 'file:open', { path: outside });
    const missing = await invoke(server, 'file:open', { path: join(seeded.dir, 'elsewhere', 'no-such-session.jsonl') });
    expect(existing.ok).toBe(false);
    expect(missing.error).toEqual(existing.error);
    // `..` is resolved before the check: it cannot climb out of a root.
    const climb = await invoke(server, 'file:open', { path: join(seeded.projectsDir, '..', '..', 'elsewhere', outside.split('/').pop() as string) });
    expect(climb.error).toEqual(existing.error);
    // Inside a root, a missing file is simply not found.
    const gone = await invoke(server, 'file:open', { path: join(seeded.projectsDir, 'nope.jsonl') });
    expect(gone.error.code).toBe('not_found');
  });

  it('refuses a link inside a root that points outside it', async () => {
    const { server, outside, seeded } = await start();
    const link = join(seeded.projectsDir, 'looks-local.jsonl');
    symlinkSync(outside, link);
    const r = await invoke(server, 'session:snapshot', { path: link });
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('refused');
  });

  it('the desktop app: a file the person opened (dialog or drop) may be inspected and forked, beside itself', async () => {
    const { server, outside } = await start('electron');
    const opened = await invoke<FileOpened>(server, 'file:open', { path: outside });
    expect(opened.ok).toBe(true);
    const written = await invoke<ForkWritten>(server, 'fork:write', { path: outside, classes: CLASSES });
    expect(written.ok).toBe(true);
    expect(written.value.path.startsWith(join(outside, '..'))).toBe(true);
    // The fork it wrote can be opened in turn.
    expect((await invoke(server, 'session:snapshot', { path: written.value.path })).ok).toBe(true);
  });

  it('a dropped transcript’s working directory is not looked up here until the person maps it', async () => {
    const { server } = await start();
    // A real transcript whose recorded working directory is rewritten to /etc: without the defence its
    // "gone" proofs would tell the sender which files exist under /etc on this machine.
    const manifest = JSON.parse(readFileSync(join(GENERATED, '02-gone-drift-errors/manifest.json'), 'utf8')) as { cwd: string };
    const text = readFileSync(join(GENERATED, '02-gone-drift-errors/transcript.jsonl'), 'utf8').split(manifest.cwd).join('/etc');
    const opened = await invoke<FileOpened>(server, 'file:open', { name: 'dropped.jsonl', text });
    const view = await invoke<SnapshotView>(server, 'session:snapshot', { path: opened.value.path });
    const classes = new Set(view.value.snapshot.segments.map((s) => s.class));
    expect(classes.has('gone')).toBe(false);
    expect(classes.has('stale-drift')).toBe(false);
    expect(view.value.repoNote).toMatch(/not looked up on this machine/);
    // Mapped by the person, the same file is checked against the folder they chose.
    await invoke(server, 'repo:map', { cwd: '/etc', folder: join(GENERATED, '02-gone-drift-errors/project-after') });
    const mapped = await invoke<SnapshotView>(server, 'session:snapshot', { path: opened.value.path });
    expect(mapped.value.snapshot.segments.some((s) => s.class === 'gone')).toBe(true);
  });

  it('token scope: a session under the roots never has a file outside them and its folder read for a drift diff', async () => {
    const { server, seeded: s } = await start();
    // A real session whose reads of src/config.json are made to name a file outside every root and
    // outside its working directory, holding a secret: unscoped, its drift diff showed the file's lines.
    const manifest = JSON.parse(readFileSync(join(GENERATED, '02-gone-drift-errors/manifest.json'), 'utf8')) as { cwd: string; project_slug: string };
    const outside = join(s.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'config.json'), 'TOKEN=the-secret-of-another-folder\n');
    // Its working directory is a real, unmapped folder here, so the disk is looked at.
    const project = join(s.dir, 'project');
    cpSync(join(GENERATED, '02-gone-drift-errors/project-after'), project, { recursive: true });
    const text = readFileSync(join(GENERATED, '02-gone-drift-errors/transcript.jsonl'), 'utf8')
      .split(`${manifest.cwd}/src/config.json`)
      .join(join(outside, 'config.json'))
      .split(manifest.cwd)
      .join(project);
    const path = join(s.projectsDir, manifest.project_slug, 'b0b0b0b0-0000-4000-8000-000000000001.jsonl');
    writeFileSync(path, text);
    const view = await invoke<SnapshotView>(server, 'session:snapshot', { path });
    expect(view.ok).toBe(true);
    const json = JSON.stringify(view.value);
    expect(json).not.toContain('the-secret-of-another-folder');
    const onIt = view.value.snapshot.segments.filter((g) => g.proof && 'checkedPath' in g.proof && g.proof.checkedPath.startsWith(outside));
    expect(onIt).toEqual([]);
    for (const g of view.value.snapshot.segments.filter((x) => x.class !== 'live')) {
      const detail = await invoke<{ content: string; explanation: string }>(server, 'segment:detail', { path, segmentId: g.id });
      expect(JSON.stringify(detail.value)).not.toContain('the-secret-of-another-folder');
    }
  });

  it('token scope: a mapped dropped file is read inside the mapped folder only, never through a link out of it', async () => {
    const { server, seeded: s } = await start();
    const manifest = JSON.parse(readFileSync(join(GENERATED, '02-gone-drift-errors/manifest.json'), 'utf8')) as { cwd: string };
    const text = readFileSync(join(GENERATED, '02-gone-drift-errors/transcript.jsonl'), 'utf8').split(manifest.cwd).join('/invented/project');
    // The folder the token holder maps it to: the project, but its src/ is a link to a folder of secrets.
    const mapped = join(s.dir, 'mapped');
    cpSync(join(GENERATED, '02-gone-drift-errors/project-after'), mapped, { recursive: true });
    const secrets = join(s.dir, 'secrets');
    mkdirSync(secrets);
    writeFileSync(join(secrets, 'config.json'), 'TOKEN=the-secret-behind-a-link\n');
    rmSync(join(mapped, 'src'), { recursive: true });
    symlinkSync(secrets, join(mapped, 'src'));
    const opened = await invoke<FileOpened>(server, 'file:open', { name: 'dropped.jsonl', text });
    expect((await invoke(server, 'repo:map', { cwd: '/invented/project', folder: mapped })).ok).toBe(true);
    const view = await invoke<SnapshotView>(server, 'session:snapshot', { path: opened.value.path });
    expect(JSON.stringify(view.value)).not.toContain('the-secret-behind-a-link');
    for (const g of view.value.snapshot.segments.filter((x) => x.class === 'stale-drift')) expect(g.proof && 'checkedPath' in g.proof ? g.proof.checkedPath : '').not.toContain('/src/');
  });

  it('repo:map answers "not usable" the same way for a missing path, a file and a folder it cannot use', async () => {
    const { server, seeded: s } = await start();
    const answers = [];
    for (const folder of [join(s.dir, 'no-such-folder'), join(s.dir, 'secret.txt'), join(s.dir, 'secret.txt', 'below')]) {
      const r = await invoke(server, 'repo:map', { cwd: '/some/cwd', folder });
      answers.push({ status: r.status, ok: r.ok, code: r.error.code, message: r.error.message.replace(folder, '<folder>') });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.ok).toBe(false);
  });

  it('problem messages give positions, never the text of a bad line', async () => {
    const { server, seeded } = await start();
    const path = seeded.sessions['02-gone-drift-errors'] as string;
    writeFileSync(path, 'root:x:0:0:root:/root:/bin/bash\n' + readFileSync(path, 'utf8'));
    const opened = await invoke<FileOpened>(server, 'file:open', { path });
    expect(opened.ok).toBe(true);
    const bad = opened.value.problems.find((p) => p.code === 'invalid_json');
    expect(bad?.line).toBe(1);
    expect(bad?.message).toMatch(/line 1: invalid JSON/);
    expect(JSON.stringify(opened.value.problems)).not.toContain('root:x');
    const view = await invoke<SnapshotView>(server, 'session:snapshot', { path });
    expect(JSON.stringify(view.value.snapshot.problems)).not.toContain('root:x');
  });
});
