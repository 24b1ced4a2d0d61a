import { appendFileSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import type { ClassifiedSnapshot, LoadedSession, Session } from '@glassbox/core';
import { hostGlassbox } from '../glassbox';
import { GENERATED, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';
import { WorkHandler } from './handler';
import type { AnalyzeOptions, ResultFor, WorkContext, WorkRequest } from './protocol';

const agents = defaultAgents();
const claude = agents.byId('claude-code').locator;
const scenarios = readdirSync(GENERATED).filter((n) => /^\d\d-/.test(n)).sort();

let seeded: Seeded | null = null;
afterEach(() => {
  seeded?.cleanup();
  seeded = null;
});

/** A seeded scenario with its session file and subagent files emptied: their real lines, to append one by one. */
function emptied(name: string): { session: string; repoRoot: string; files: { path: string; lines: string[] }[] } {
  seeded = seedConfigDir([name]);
  const session = seeded.sessions[name] as string;
  const subDir = join(session.replace(/\.jsonl$/, ''), 'subagents');
  const subs = safeList(subDir).filter((n) => n.endsWith('.jsonl')).map((n) => join(subDir, n));
  const files = [session, ...subs].map((path) => {
    const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0);
    writeFileSync(path, '');
    return { path, lines };
  });
  return { session, repoRoot: Object.values(seeded.repoMap)[0] as string, files };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** What a reader of the session sees, Maps as entries, functions left out. */
function sessionFacts(s: Session): unknown {
  const { nodes, toolCalls, capturedTextOf: _read, payloadCopies, ...rest } = s;
  return JSON.parse(JSON.stringify({ ...rest, nodes: [...nodes], toolCalls: [...toolCalls], payloadCopies: payloadCopies ? [...payloadCopies] : null }));
}

function facts(loaded: LoadedSession): unknown {
  return { session: sessionFacts(loaded.session), subagents: loaded.subagents.map(sessionFacts) };
}

function analysed(loaded: LoadedSession, repoRoot: string): unknown {
  const snap: ClassifiedSnapshot = hostGlassbox(agents, '/nonexistent').sessions.analyze(loaded, { repoRoot, withInferred: true });
  return untimed(snap);
}

/** A value as JSON, without the time it was checked at (two analyses a millisecond apart). */
function untimed(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'checkedAt' ? undefined : v)));
}

describe('a followed Claude Code session', () => {
  // The important property: a session brought up to date append by append is the session a whole
  // read gives, and so is its analysis (the same classes, proofs and figures: nothing dead that a
  // full re-analysis keeps live). Every real scenario, every record, its subagents' records interleaved.
  it.each(scenarios)('%s appended record by record equals a whole read, and so does its analysis', (name) => {
    const { session, repoRoot, files } = emptied(name);
    const [main, ...subs] = files;
    if (!main) throw new Error('no session file');
    appendFileSync(main.path, `${main.lines[0]}\n`);
    const follower = claude.follow?.(session);
    if (!follower) throw new Error('Claude Code sessions can be followed');
    const steps = Math.max(main.lines.length, ...subs.map((s) => s.lines.length));
    for (let i = 1; i < steps; i++) {
      for (const f of files) if (i < f.lines.length) appendFileSync(f.path, `${f.lines[i]}\n`);
      const live = follower.update();
      expect(live, `step ${i}: the append was read`).not.toBeNull();
      const whole = claude.load(session);
      expect(facts(live as LoadedSession), `${name}, line ${i + 1}: the session`).toEqual(facts(whole));
      expect(analysed(live as LoadedSession, repoRoot), `${name}, line ${i + 1}: the analysis`).toEqual(analysed(whole, repoRoot));
    }
  });

  it('waits for the newline of a line still being written, then reads it', () => {
    const { session, files } = emptied('01-superseded-reads');
    const lines = files[0]?.lines ?? [];
    appendFileSync(session, lines.slice(0, 10).join('\n') + '\n');
    const follower = claude.follow?.(session);
    const before = follower?.loaded.session.nodes.size;
    const half = Math.floor((lines[10] ?? '').length / 2);
    appendFileSync(session, (lines[10] ?? '').slice(0, half));
    expect(follower?.update()?.session.nodes.size).toBe(before);
    appendFileSync(session, (lines[10] ?? '').slice(half) + '\n');
    const after = follower?.update();
    expect(facts(after as LoadedSession)).toEqual(facts(claude.load(session)));
    expect(after?.session.stats.lines).toBe(11);
  });

  it('gives up on a file that was truncated or rewritten (the caller reads it whole)', () => {
    const { session, files } = emptied('01-superseded-reads');
    const lines = files[0]?.lines ?? [];
    appendFileSync(session, lines.slice(0, 20).join('\n') + '\n');
    const truncated = claude.follow?.(session);
    truncateSync(session, statSync(session).size - 10);
    expect(truncated?.update()).toBeNull();

    writeFileSync(session, lines.slice(0, 20).join('\n') + '\n');
    const rewritten = claude.follow?.(session);
    // Longer than before, but not what was read: the first records replaced by later ones.
    writeFileSync(session, lines.slice(5, 40).join('\n') + '\n');
    expect(rewritten?.update()).toBeNull();
  });
});

describe('the work thread on a live session', () => {
  const options = (repoRoot: string): AnalyzeOptions => ({ repoRoot, withInferred: false, diskless: false, readScope: null });
  const ctx: WorkContext = { progress: () => {}, cancelled: () => false };
  const run = <R extends WorkRequest>(h: WorkHandler, r: R): ResultFor<R> => h.run(r, ctx);
  const view = (r: ResultFor<{ op: 'snapshot' } & WorkRequest>): unknown => {
    if (r === 'missing' || !r.view) return r;
    const { json, turnAdditions, ...rest } = r.view;
    return untimed({ summary: r.summary, ...rest, json: JSON.parse(new TextDecoder().decode(json)), turnAdditions: JSON.parse(new TextDecoder().decode(turnAdditions)) });
  };

  it('answers each append with the window a fresh open gives, and a rewrite with the new file', () => {
    const { session, repoRoot, files } = emptied('02-gone-drift-errors');
    const lines = files[0]?.lines ?? [];
    const live = new WorkHandler(agents, hostGlassbox(agents, seeded?.dataDir ?? ''));
    const ref = { key: session, path: session };
    const request = { op: 'snapshot' as const, ref, options: options(repoRoot), hideRepoMissing: false };
    appendFileSync(session, `${lines[0]}\n`);
    run(live, request);
    for (let i = 1; i < lines.length; i += 7) {
      appendFileSync(session, lines.slice(i, i + 7).join('\n') + '\n');
      const fresh = new WorkHandler(agents, hostGlassbox(agents, seeded?.dataDir ?? ''), { follow: false });
      expect(view(run(live, request)), `after line ${i + 7}`).toEqual(view(run(fresh, request)));
    }
    writeFileSync(session, lines.slice(0, 12).join('\n') + '\n');
    const fresh = new WorkHandler(agents, hostGlassbox(agents, seeded?.dataDir ?? ''), { follow: false });
    const after = view(run(live, request));
    expect(after).toEqual(view(run(fresh, request)));
    expect((after as { summary: { size: number } }).summary.size).toBe(statSync(session).size);
  });
});
