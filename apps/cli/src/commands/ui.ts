import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../exit-codes';
import type { CliIO } from '../io';
import type { RegisterCommand } from './registry';

interface UiOptions {
  port?: string;
  open: boolean;
  repo: string[];
  dataDir?: string;
  watch: boolean;
}

/**
 * `glassbox ui`: the desktop app's renderer and engine host served on 127.0.0.1 for a browser — for
 * remote machines over SSH (forward the port) and for end-to-end tests. The first line printed is the
 * URL with its per-run token; nothing answers without that token.
 */
export const registerUi: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('ui')
    .description('Serve the Glassbox app on 127.0.0.1 for a browser (prints its URL, token included, first)')
    .option('--port <n>', 'port to listen on (default: a random free port)')
    .option('--no-open', 'do not open a browser')
    .option('--no-watch', 'do not watch session files for changes')
    .option('--repo <cwd=folder>', 'map a recorded working directory to a folder here (repeatable)', collect, [])
    .option('--data-dir <dir>', "Glassbox's own data folder (default: GLASSBOX_DATA_DIR or ~/.local/share/glassbox)")
    .action(async (opts: UiOptions) => {
      const port = parsePort(opts.port);
      const repoMap = parseRepoMap(opts.repo);
      // Loaded lazily: the host pulls in the whole engine, which other commands do not need.
      const { createHost, startUiServer } = await import('@glassbox/host');
      const { WEB_DIR, buildWeb, webBuilt } = await import('@glassbox/renderer/build');
      if (!webBuilt()) {
        io.err('glassbox ui: building the web renderer (first run)…');
        await buildWeb();
      }
      const env = opts.dataDir ? { ...io.env, GLASSBOX_DATA_DIR: resolve(opts.dataDir) } : io.env;
      const host = createHost(env, { repoMap, watch: opts.watch }, (n) => io.err(`glassbox ui: ${n}`));
      const server = await startUiServer({ host, staticDir: WEB_DIR, port });
      io.out(server.url);
      io.err(`Glassbox is serving ${host.roots().join(', ') || 'no projects folder'} — press Ctrl+C to stop.`);
      void host.start();
      if (opts.open) openBrowser(server.url, io);
      await new Promise<void>((done) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          host.close();
          void server.close().then(done);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
};

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${raw}"`);
  return n;
}

function parseRepoMap(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new UsageError(`--repo takes <recorded cwd>=<folder here>, not "${pair}"`);
    const folder = resolve(pair.slice(at + 1));
    if (!existsSync(folder)) throw new UsageError(`--repo: ${folder} does not exist`);
    out[pair.slice(0, at)] = folder;
  }
  return out;
}

function openBrowser(url: string, io: CliIO): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '""', url] : [url];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => io.err(`(could not open a browser: open ${url} yourself)`));
    child.unref();
  } catch {
    io.err(`(could not open a browser: open ${url} yourself)`);
  }
}
