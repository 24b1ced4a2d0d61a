// Test helpers: the requests the real Claude Code (2.1.197, 2.1.332) sent when it resumed each fixture
// (recorded by `npm run test:window -- --record`), and the window compared with them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { compareWindowWithRequest, requestItems, windowItems, type WindowComparison } from '@glassbox/adapter-claude-code';
import { readSessionFile } from '@glassbox/adapter-claude-code/node';
import type { Session } from '@glassbox/core';
import { reconstructWindow, type ResidentWindow, applyRequestView, SENT_KINDS } from '@glassbox/analysis';
import { FIXTURES } from './fixtures';

/** The day the requests were captured: the client's clock decides which models count as retired. */
export const CAPTURED_ON = new Date('2026-12-01T12:00:00Z');

export interface RecordedRequest {
  /** "Claude Code 2.1.197 (cc-harness …)": the client that sent it. */
  capturedWith: string;
  model: string;
  prompt: string;
  messages: unknown[];
}

/** Every fixture transcript with a recorded request (`variant` names a request made with `--model`). */
export function recordedFixtures(): { transcript: string; request: string }[] {
  const out: { transcript: string; request: string }[] = [];
  const gen = join(FIXTURES, 'generated');
  for (const name of readdirSync(gen).filter((n) => /^\d\d-/.test(n)).sort()) {
    const req = join(gen, name, 'resume-request.json');
    if (!existsSync(req)) continue;
    const manifest = JSON.parse(readFileSync(join(gen, name, 'manifest.json'), 'utf8')) as { session_ids: string[] };
    out.push({ transcript: join(gen, name, 'claude-project', `${manifest.session_ids[0]}.jsonl`), request: req });
  }
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.resume-request.json')) out.push({ transcript: join(dirname(p), `${basename(e, '.resume-request.json')}.jsonl`), request: p });
    }
  };
  walk(join(FIXTURES, 'public'));
  return out;
}

export function loadRequest(path: string): RecordedRequest {
  return JSON.parse(readFileSync(path, 'utf8')) as RecordedRequest;
}

/** The version of the client that sent a recorded request. */
function clientOf(request: RecordedRequest): string {
  const version = /Claude Code (\d+\.\d+\.\d+)/.exec(request.capturedWith)?.[1];
  if (!version) throw new Error(`a recorded request names no client version: ${request.capturedWith}`);
  return version;
}

export interface Checked {
  session: Session;
  window: ResidentWindow;
  comparison: WindowComparison;
}

/** The window of a transcript (on `model`, or the client's choice) against a recorded request. */
export function checkAgainst(transcript: string, request: RecordedRequest, model?: string): Checked {
  const { session } = readSessionFile(transcript);
  const window = reconstructWindow(session);
  const client = clientOf(request);
  applyRequestView(session, window, model === undefined ? { now: CAPTURED_ON, client } : { now: CAPTURED_ON, model, client });
  const lines = readFileSync(transcript, 'utf8').split('\n');
  const items = windowItems(window.nodes, (n, b) => !window.excludedBlocks.has(`${n.uuid}:${b.index}`), (n) => lines[n.line - 1] ?? '{}', SENT_KINDS, window.joinedReminderOverhead);
  return { session, window, comparison: compareWindowWithRequest(items, requestItems(request.messages, request.prompt)) };
}
