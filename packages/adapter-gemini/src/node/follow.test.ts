import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '@glassbox/analysis';
import type { LoadedSession, Session } from '@glassbox/core';
import { fixtures, linesOf, mainChat, type Fixture } from '@glassbox/test-support/gemini/corpus';
import { fixturePorts } from '@glassbox/test-support/ports';
import { geminiLocator } from './locator';
import { followChat } from './follow';

const testPorts = fixturePorts('2026-12-02');

/** What a reader of the session sees, Maps as entries, functions left out. */
function sessionFacts(s: Session): unknown {
  const { nodes, toolCalls, capturedTextOf: _read, ...rest } = s;
  return JSON.parse(JSON.stringify({ ...rest, nodes: [...nodes], toolCalls: [...toolCalls] }));
}

function facts(l: LoadedSession): unknown {
  return { session: sessionFacts(l.session), subagents: l.subagents.map(sessionFacts) };
}

/** The analysis as JSON, without the time it was checked at, and every read's captured text. */
function analysed(l: LoadedSession): unknown {
  const s = l.session;
  const snap = analyzeSession(s, testPorts, { repoRoot: null, withInferred: true, subagents: l.subagents });
  const captured = [...s.toolCalls.values()].map((c) => s.capturedTextOf?.(c) ?? null);
  return JSON.parse(JSON.stringify({ snap, captured }, (k, v: unknown) => (k === 'checkedAt' ? undefined : v)));
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

/** The fixture's chats folder copied, every log in it emptied: their real records, to append one by one. */
function emptied(f: Fixture): { main: string; logs: { path: string; lines: string[] }[] } {
  const chats = dirname(mainChat(f));
  const copy = join(mkdtempSync(join(tmpdir(), 'gemini-follow-')), 'chats');
  cpSync(chats, copy, { recursive: true });
  const main = join(copy, relative(chats, mainChat(f)));
  const logs = walk(copy)
    .filter((p) => p.endsWith('.jsonl'))
    .sort((a, b) => (a === main ? -1 : b === main ? 1 : a.localeCompare(b)))
    .map((path) => {
      const lines = linesOf(path);
      writeFileSync(path, '');
      return { path, lines };
    });
  return { main, logs };
}

const logFixtures = fixtures().filter((f) => mainChat(f).endsWith('.jsonl'));
const documentFixtures = fixtures().filter((f) => mainChat(f).endsWith('.json'));

describe('a followed Gemini CLI chat log', () => {
  // The important property: a log brought up to date append by append is the session a whole read
  // gives, and so is its analysis. Every real log, record by record, its subagents' records interleaved.
  it.each(logFixtures.map((f) => [`${f.scenario} v${f.version}`, f]))('%s appended record by record equals a whole read, and so does its analysis', (_name, f) => {
    const { main, logs } = emptied(f);
    appendFileSync(main, `${logs[0]?.lines[0]}\n`);
    const follower = followChat(main);
    const steps = Math.max(...logs.map((l) => l.lines.length));
    const stride = Math.max(1, Math.ceil(steps / 60));
    for (let i = 0; i < steps; i++) {
      for (const l of logs) if (i < l.lines.length && !(l.path === main && i === 0)) appendFileSync(l.path, `${l.lines[i]}\n`);
      const live = follower.update();
      expect(live, `step ${i}: the append was read`).not.toBeNull();
      // Compared with a whole read at about 60 points spread over the chat (one per step is quadratic).
      if (i % stride !== 0 && i !== steps - 1) continue;
      const whole = geminiLocator.load(main);
      expect(facts(live as LoadedSession), `step ${i}: the session`).toEqual(facts(whole));
      expect(analysed(live as LoadedSession), `step ${i}: the analysis`).toEqual(analysed(whole));
    }
  }, 120_000);

  it('waits for the newline of a record still being written, and gives up on a log truncated or rewritten', () => {
    const f = logFixtures[0] as Fixture;
    const { main, logs } = emptied(f);
    const lines = logs[0]?.lines ?? [];
    appendFileSync(main, lines.slice(0, 3).join('\n') + '\n');
    const follower = followChat(main);
    const before = facts(follower.loaded);
    const line = lines[3] ?? '';
    appendFileSync(main, line.slice(0, Math.floor(line.length / 2)));
    expect(facts(follower.update() as LoadedSession)).toEqual(before);
    appendFileSync(main, line.slice(Math.floor(line.length / 2)) + '\n');
    expect(facts(follower.update() as LoadedSession)).toEqual(facts(geminiLocator.load(main)));

    truncateSync(main, statSync(main).size - 10);
    expect(follower.update()).toBeNull();
    writeFileSync(main, lines.slice(0, 3).join('\n') + '\n');
    const rewritten = followChat(main);
    writeFileSync(main, [lines[0], ...lines.slice(2)].join('\n') + '\n');
    expect(rewritten.update()).toBeNull();
  });
});

describe('a followed Gemini CLI chat document (up to 0.38)', () => {
  // The client rewrites a document whole on every turn: nothing to append, so any change is a whole read.
  it.each(documentFixtures.map((f) => [`${f.scenario} v${f.version}`, f]))('%s is read whole, and any change to it gives null', (_name, f) => {
    const chats = dirname(mainChat(f));
    const copy = join(mkdtempSync(join(tmpdir(), 'gemini-follow-doc-')), 'chats');
    cpSync(chats, copy, { recursive: true });
    const main = join(copy, relative(chats, mainChat(f)));
    const follower = followChat(main);
    expect(facts(follower.loaded)).toEqual(facts(geminiLocator.load(main)));
    expect(follower.update()).toBe(follower.loaded);
    writeFileSync(main, readFileSync(main, 'utf8') + '\n');
    expect(follower.update()).toBeNull();
  });

  it('is what the locator offers the host', () => {
    expect(geminiLocator.follow).toBe(followChat);
  });
});
