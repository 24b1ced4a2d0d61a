import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_MINIMUM_SAVINGS, DEFAULT_PROTECT_TAIL } from '@glassbox/analysis';
import { humanTokens } from '@glassbox/core';
import { defaultDbPath, readSavedMappings } from '@glassbox/store';
import { glassboxFor } from '../engine';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import type { RunningProxy } from '@glassbox/proxy';
import { AGENTS } from '../agents';
import { UsageError } from '../exit-codes';
import { outJson, type CliIO } from '../io';
import type { RegisterCommand } from './registry';
import { renderProxyStatus } from '../render/proxy-status';

interface ServeFlags {
  port?: string;
  host: string;
  allowRemote?: boolean;
  upstream?: string;
  repo: string[];
  evictNow?: boolean;
  horizon: string;
  protect: string;
  minSavings: string;
  cacheTtl?: string;
  maxBody: string;
  archive?: string;
  log?: string;
}

const DEFAULT_UPSTREAM = 'https://api.anthropic.com';
const DEFAULT_HORIZON = 20;
const DEFAULT_MAX_BODY = 64 * 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * `glassbox proxy`: a local proxy for the Anthropic Messages API that takes proven-dead payloads out
 * of each request when the prompt cache makes it free (docs/proxy.md). `serve` runs one (its URL is
 * the first line printed), `run -- <client…>` runs one for one client run, `status` says what they did.
 */
export const registerProxy: RegisterCommand = (program: Command, io: CliIO) => {
  const proxy = program.command('proxy').description('a local proxy for the Anthropic API that removes proven-dead content when the prompt cache makes it free');

  serveOptions(proxy.command('serve').description('run the proxy on 127.0.0.1 and print its URL first (point ANTHROPIC_BASE_URL at it)')).action(async (flags: ServeFlags) => {
    const running = await start(flags, io, logSink(flags, (line) => io.err(`glassbox proxy: ${line}`)));
    io.out(running.url);
    io.err(`glassbox proxy: forwarding to ${upstreamOf(flags, io.env)} — set ANTHROPIC_BASE_URL=${running.url}; Ctrl+C to stop.`);
    await new Promise<void>((done) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void running.close().then(done);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    io.err(`glassbox proxy: ${summary(running)}`);
  });

  serveOptions(proxy.command('run').description('start a proxy for one run of a client and point its ANTHROPIC_BASE_URL at it').argument('<command...>', 'the client and its arguments, after --')).action(
    async (command: string[], flags: ServeFlags) => {
      const [bin, ...args] = command;
      if (!bin) throw new UsageError('proxy run needs the client to run, e.g. glassbox proxy run -- claude');
      // The client owns the terminal: lines go to --log only.
      const running = await start(flags, io, logSink(flags, null));
      const code = await new Promise<number>((done) => {
        const child = spawn(bin, args, { stdio: 'inherit', env: { ...io.env, ANTHROPIC_BASE_URL: running.url } });
        child.on('error', (error) => {
          io.err(`glassbox proxy: cannot run ${bin} (${error.message})`);
          done(127);
        });
        child.on('exit', (c, signal) => done(c ?? 128 + (signal ? (constants.signals[signal] ?? 1) : 1)));
      });
      await running.close();
      io.err(`glassbox proxy: ${summary(running)}`);
      io.exitCode = code;
    },
  );

  proxy
    .command('status')
    .description('what the proxy did: per conversation, requests, tokens saved, cache breaks caused, fail-opens, removals')
    .option('--archive <dir>', "the archive folder (default: Glassbox's data folder)")
    .option('--json', 'print JSON')
    .action(async (flags: { archive?: string; json?: boolean }) => {
      const { ProxyArchive, proxyStatus } = await import('@glassbox/proxy');
      const status = proxyStatus(new ProxyArchive(glassboxFor(io, { archive: flags.archive }).setup.archiveDir));
      if (flags.json) outJson(io, status);
      else io.out(renderProxyStatus(status, io.color));
    });
};

function serveOptions(cmd: Command): Command {
  return cmd
    .option('--port <n>', 'port to listen on (0: a free one)', '0')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--allow-remote', 'allow listening on an address other than the loopback (API keys would cross the network unencrypted)')
    .option('--upstream <url>', `where requests go (default: ANTHROPIC_BASE_URL, else ${DEFAULT_UPSTREAM})`)
    .option('--repo <cwd=folder>', 'map a recorded working directory to a folder here (repeatable)', collect, [])
    .option('--evict-now', 'apply every proven removal at once, whatever the cache')
    .option('--horizon <n>', 'break a warm cache only when the saving over this many requests pays for it', String(DEFAULT_HORIZON))
    .option('--protect <n>', 'the last N exchanges are never touched', String(DEFAULT_PROTECT_TAIL))
    .option('--min-savings <tokens>', 'new removals saving fewer tokens than this together are not applied', String(DEFAULT_MINIMUM_SAVINGS))
    .option('--cache-ttl <duration>', 'assume this cache lifetime (e.g. 5m, 1h, 30s) instead of what the usage shows')
    .option('--max-body <bytes>', 'request bodies larger than this are streamed through unread', String(DEFAULT_MAX_BODY))
    .option('--archive <dir>', "the archive folder (default: Glassbox's data folder)")
    .option('--log <file>', 'append the log lines to this file (run: the only place they go)');
}

/** Log lines to the terminal (when given) and to `--log FILE` (private, appended). */
function logSink(flags: ServeFlags, terminal: ((line: string) => void) | null): (line: string) => void {
  const file = flags.log ? resolve(flags.log) : null;
  return (line) => {
    terminal?.(line);
    if (file) appendFileSync(file, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
  };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function upstreamOf(flags: ServeFlags, env: NodeJS.ProcessEnv): string {
  return flags.upstream ?? env['ANTHROPIC_BASE_URL'] ?? DEFAULT_UPSTREAM;
}

async function start(flags: ServeFlags, io: CliIO, log: (line: string) => void): Promise<RunningProxy> {
  if (!LOOPBACK.has(flags.host) && !flags.allowRemote) {
    throw new UsageError(`--host ${flags.host}: the proxy listens on the loopback only, because API keys reach it unencrypted; add --allow-remote if you mean it`);
  }
  const upstream = upstreamOf(flags, io.env);
  try {
    const u = new URL(upstream);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`--upstream ${upstream}: give an http or https URL`);
  }
  const { startProxy, ProxyArchive } = await import('@glassbox/proxy');
  return startProxy({
    upstream,
    host: flags.host,
    port: whole('--port', flags.port ?? '0', 0, 65535),
    archive: new ProxyArchive(glassboxFor(io, { archive: flags.archive }).setup.archiveDir),
    maxAnalysedBytes: whole('--max-body', flags.maxBody, 1, Number.MAX_SAFE_INTEGER),
    log,
    settings: {
      ports: nodeAnalysisPorts(),
      // Folder mappings saved by the app apply, as for inspect; --repo overrides them for this run.
      mappings: { ...readSavedMappings(defaultDbPath(io.env, io.env['HOME'] ?? undefined)), ...repoMap(flags.repo) },
      prices: AGENTS.registry.byId('claude-code').format.prices,
      protectTail: whole('--protect', flags.protect, 0, 1000),
      horizon: whole('--horizon', flags.horizon, 1, 1_000_000),
      minimumSavings: whole('--min-savings', flags.minSavings, 0, Number.MAX_SAFE_INTEGER),
      evictNow: flags.evictNow === true,
      cacheTtlMs: flags.cacheTtl === undefined ? null : duration(flags.cacheTtl),
    },
  });
}

function whole(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} ${raw}: give a whole number from ${min} to ${max}`);
  return n;
}

function duration(raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(raw);
  if (!m) throw new UsageError(`--cache-ttl ${raw}: give a duration such as 30s, 5m or 1h`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(m[1]) * unit);
}

function repoMap(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new UsageError(`--repo takes <recorded cwd>=<folder here>, not "${pair}"`);
    out[pair.slice(0, at).replace(/\/+$/, '')] = resolve(pair.slice(at + 1));
  }
  return out;
}

function summary(running: RunningProxy): string {
  const t = running.totals();
  return `${t.requests} request(s) in ${t.conversations} conversation(s): ${t.rewritten} rewritten, ${t.removals} removal(s), ${humanTokens(t.savedTokens)} tokens fewer sent, ${t.cacheBreaks} warm cache break(s), ${t.failOpens} sent as the client sent them`;
}
