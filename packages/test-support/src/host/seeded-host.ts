// Test support for the host's tests: a host over a seeded folder, and one HTTP request to a UI server.
import { request } from 'node:http';
import { defaultAgents } from '@glassbox/agents';
import { hostGlassbox, EngineHost, IndexCatalog } from '@glassbox/host';
import type { Seeded } from './seed';

/** A host over the seeded projects folder with the default engine and agents, indexing inline (no worker threads). */
export function seededHost(s: Seeded, options: { mode?: 'browser' | 'electron'; repoMap?: Record<string, string>; watch?: boolean; onCatalog?: (catalog: IndexCatalog) => void } = {}): EngineHost {
  return new EngineHost({
    mode: options.mode ?? 'browser',
    roots: [s.projectsDir],
    dataDir: s.dataDir,
    samplesDir: null,
    repoMap: options.repoMap ?? {},
    glassbox: hostGlassbox(defaultAgents(), s.dataDir),
    watch: options.watch ?? false,
    agents: defaultAgents(),
    catalog: () => {
      const catalog = new IndexCatalog({ roots: [s.projectsDir], dataDir: s.dataDir, workers: 0 });
      // A test that changes a file awaits this catalog's watcher first.
      options.onCatalog?.(catalog);
      return catalog;
    },
  });
}

export interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One request to a server on 127.0.0.1, its reply read whole. */
export function call(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}
