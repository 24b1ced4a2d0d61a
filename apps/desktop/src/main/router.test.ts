import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { EngineHost, IndexCatalog, hostGlassbox } from '@glassbox/host';
import { seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';
import { createRouter, sameRenderer } from './router';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  seeded?.cleanup();
  host = null;
  seeded = null;
});

const RENDERER = pathToFileURL('/opt/Glassbox/resources/app.asar/out/renderer/index.html').href;

function router() {
  seeded = seedConfigDir(['01-superseded-reads']);
  const s = seeded;
  host = new EngineHost({
    mode: 'electron',
    roots: [s.projectsDir],
    dataDir: s.dataDir,
    samplesDir: null,
    glassbox: hostGlassbox(defaultAgents(), s.dataDir),
    agents: defaultAgents(),
    catalog: () => new IndexCatalog({ roots: [s.projectsDir], dataDir: s.dataDir, workers: 0 }),
  });
  const h = host;
  let forwarded = 0;
  const route = createRouter({
    rendererUrl: () => RENDERER,
    windowId: () => 7,
    forward: (channel, args) => {
      forwarded++;
      return h.handle(channel, args);
    },
  });
  return { route, forwarded: () => forwarded, path: s.sessions['01-superseded-reads'] as string };
}

describe('main-process IPC router', () => {
  it('forwards a valid request from our window to the engine and returns its result', async () => {
    const { route, path } = router();
    const r = await route({ id: 7, frameUrl: RENDERER, isMainFrame: true }, 'session:snapshot', { path });
    expect(r.ok).toBe(true);
    expect(r.ok && (r.value as { snapshot: { segments: unknown[] } }).snapshot.segments.length).toBeGreaterThan(10);
  });

  it('refuses other windows, sub-frames and other pages before the engine sees anything', async () => {
    const { route, forwarded } = router();
    const refused = [
      await route({ id: 8, frameUrl: RENDERER, isMainFrame: true }, 'host:info', {}),
      await route({ id: 7, frameUrl: RENDERER, isMainFrame: false }, 'host:info', {}),
      await route({ id: 7, frameUrl: 'https://evil.example/', isMainFrame: true }, 'host:info', {}),
      await route({ id: 7, frameUrl: pathToFileURL('/tmp/other.html').href, isMainFrame: true }, 'host:info', {}),
    ];
    for (const r of refused) expect(r.ok === false && r.error.code).toBe('refused');
    expect(forwarded()).toBe(0);
  });

  it('refuses unknown channels and invalid arguments in main', async () => {
    const { route, forwarded } = router();
    const me = { id: 7, frameUrl: RENDERER, isMainFrame: true };
    const unknown = await route(me, 'fs:readFile', { path: '/etc/passwd' });
    expect(unknown.ok === false && unknown.error.code).toBe('unknown_channel');
    const bad = await route(me, 'fork:write', { path: join('/x', 'y.jsonl'), classes: ['everything'] });
    expect(bad.ok === false && bad.error.code).toBe('bad_args');
    expect(forwarded()).toBe(0);
  });

  it('compares renderer URLs by file path or by origin', () => {
    expect(sameRenderer(`${RENDERER}#x`, RENDERER)).toBe(true);
    expect(sameRenderer('http://localhost:5173/index.html', 'http://localhost:5173/')).toBe(true);
    expect(sameRenderer('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
    expect(sameRenderer(null, RENDERER)).toBe(false);
  });
});
