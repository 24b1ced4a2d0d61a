// Test helpers: the real requests Claude Code sent, and the replies it got, in a recorded run
// (fixtures/proxy/README.md says how they were made). Bytes come back exactly as sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO_ROOT } from '../paths';

export const PROXY_FIXTURES = join(REPO_ROOT, 'fixtures/proxy');

/** The recorded runs: Claude Code 2.1.332 (the newest) and 2.1.197. */
export const RECORDED_RUNS = ['31-proxy-live-2.1.332', '31-proxy-live-2.1.197'] as const;

export interface RecordedExchange {
  n: number;
  /** When the client's request arrived (ISO). */
  time: string;
  repliedAt: string | null;
  url: string;
  session: string | null;
  status: number | null;
  contentType: string | null;
  body: Buffer;
  reply: Buffer | null;
}

export interface RecordedRun {
  dir: string;
  /** The working directory the client ran in, as its requests name it. */
  cwd: string;
  version: string;
  exchanges: RecordedExchange[];
  transcript: string;
  projectAfter: string;
}

interface ExchangeEntry {
  n: number;
  time: string;
  repliedAt: string | null;
  url: string;
  session: string | null;
  status: number | null;
  contentType: string | null;
  request: string;
  reply?: string;
}

export function recordedRun(name: string): RecordedRun {
  const dir = join(PROXY_FIXTURES, name);
  const entries = JSON.parse(readFileSync(join(dir, 'exchanges.json'), 'utf8')) as ExchangeEntry[];
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { cwd: string; claude_version: string };
  return {
    dir,
    cwd: manifest.cwd,
    version: manifest.claude_version,
    exchanges: entries.map((e) => ({
      n: e.n,
      time: e.time,
      repliedAt: e.repliedAt,
      url: e.url,
      session: e.session,
      status: e.status,
      contentType: e.contentType,
      body: gunzipSync(readFileSync(join(dir, e.request))),
      reply: e.reply ? gunzipSync(readFileSync(join(dir, e.reply))) : null,
    })),
    transcript: join(dir, 'transcript.jsonl'),
    projectAfter: join(dir, 'project-after'),
  };
}
