import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import { fileLineSource } from '@glassbox/store';
import { Glassbox } from './glassbox';
import { Refusal } from './failures';

const CORPUS = resolve(import.meta.dirname, '../../../fixtures/corpus');
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function engine(): { glassbox: Glassbox; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-conv-'));
  made.push(dir);
  const env = { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), GEMINI_CLI_HOME: join(dir, 'gemini'), GLASSBOX_DATA_DIR: join(dir, 'data') };
  return { glassbox: new Glassbox({ agents: defaultAgents(), ports: nodeAnalysisPorts(), env, home: dir }), dir };
}

/** The conversation of a fixture, as the window reads it (with its repository mapped when it has one). */
function conversationOf(glassbox: Glassbox, rel: string, repo: string | null = null) {
  const path = join(CORPUS, rel);
  const opened = glassbox.sessions.open(path);
  const snapshot = glassbox.sessions.analyze(opened.loaded, { repoRoot: repo });
  const histories = glassbox.sessions.compactions(opened, { repoRoot: repo });
  return { path, opened, snapshot, conv: glassbox.conversations.read({ opened, snapshot, histories, lines: fileLineSource(path), textCap: null }) };
}

const flat = <T extends { result?: T }>(items: readonly T[]): T[] => items.flatMap((i) => (i.result ? [i, i.result] : [i]));

describe('the whole conversation', () => {
  it('reads a session compacted twice from its first prompt, each compaction in place', () => {
    const { glassbox } = engine();
    const { conv, snapshot } = conversationOf(glassbox, 'generated/15-autocompact-twice/transcript.jsonl');
    expect(conv.compactions.map((c) => c.index)).toEqual([1, 2]);
    const all = flat(conv.items);
    // More than the resident window: everything before each compaction is there too.
    expect(all.length).toBeGreaterThan(snapshot.segments.length);
    expect(all[0]?.kind).toBe('prompt');
    expect(all[0]?.text).toContain('Review the whole project');
    expect(new Set(all.map((i) => i.window))).toEqual(new Set([0, 1, 2]));
    // Windows in order, and each compaction sits between the last item before it and the first after.
    for (const c of conv.compactions) {
      expect(conv.items[c.before - 1]?.window).toBe(c.index - 1);
      expect(conv.items[c.before]?.window).toBe(c.index);
    }
    // Lines only go forward within a window (a message kept across a compaction is shown once, first).
    const lines = conv.items.map((i) => i.line);
    expect(new Set(conv.items.map((i) => i.segmentId)).size).toBe(conv.items.length);
    expect(lines.filter((l, i) => i > 0 && conv.items[i - 1]!.window === conv.items[i]!.window && l < lines[i - 1]!)).toEqual([]);
    // Only the last window is the one the treemap shows.
    expect(all.filter((i) => i.resident).every((i) => i.window === 2)).toBe(true);
  });

  it('reads each tool call with its result, and a re-attached file as the file', () => {
    const { glassbox } = engine();
    const { conv } = conversationOf(glassbox, 'generated/15-autocompact-twice/transcript.jsonl');
    const calls = conv.items.filter((i) => i.kind === 'tool-input');
    expect(calls.length).toBeGreaterThan(3);
    expect(calls.every((c) => c.result?.kind === 'tool-result')).toBe(true);
    const read = calls.find((c) => c.toolName === 'Read');
    expect(read?.text).toContain('file_path:');
    expect(read?.result?.text).toMatch(/\d+\t/);
    // No result is left standing alone once its call is in the same window.
    expect(conv.items.filter((i) => i.kind === 'tool-result')).toEqual([]);
    const attached = flat(conv.items).filter((i) => i.kind === 'attachment' && i.attachment?.startsWith('file '));
    expect(attached.length).toBeGreaterThan(0);
    for (const a of attached) {
      expect(a.attachment).toContain('attached by the client');
      expect(a.text).not.toContain('Called the Read tool');
    }
  });

  it('marks what a fork would remove, in the window now and before the compactions', () => {
    const { glassbox } = engine();
    const { conv, snapshot } = conversationOf(glassbox, 'generated/02-gone-drift-errors/transcript.jsonl', join(CORPUS, 'generated/02-gone-drift-errors/project-after'));
    const dead = flat(conv.items).filter((i) => i.dead);
    expect(dead.length).toBeGreaterThan(0);
    expect(new Set(dead.map((i) => i.segmentId))).toEqual(new Set(snapshot.segments.filter((s) => s.class !== 'live' && s.class !== 'tombstone').map((s) => s.id)));
  });
});

describe('a Codex rollout', () => {
  const ROLLOUT = 'codex/03-long-session-compaction/sessions/2026/12/01/rollout-2026-12-01T03-03-25-01a22f8e-9f9f-7c60-b093-ddb928295eeb.jsonl';

  it('reads its outputs and calls as text, not previews', () => {
    const { glassbox } = engine();
    const { conv } = conversationOf(glassbox, ROLLOUT);
    const all = flat(conv.items);
    const results = all.filter((i) => i.kind === 'tool-result');
    expect(results.length).toBeGreaterThan(0);
    // A preview is one line of at most 160 characters; the text read back is the output itself.
    expect(results.some((r) => r.text.includes('\n') || r.text.length > 160)).toBe(true);
    const calls = all.filter((i) => i.kind === 'tool-input');
    expect(calls.some((c) => c.text.includes(': '))).toBe(true);
  });

  it('reads the rollout from its first prompt, each `compacted` record in place', () => {
    const { glassbox } = engine();
    const { conv, snapshot } = conversationOf(glassbox, ROLLOUT);
    // The adapter records the rollout's compactions: the earlier windows are rebuilt, the view is whole.
    expect(conv.fromLastCompaction).toBe(false);
    expect(conv.compactions.map((c) => [c.index, c.line, c.trigger])).toEqual([[1, 63, 'unknown'], [2, 158, 'unknown']]);
    expect(conv.compactions[0]?.preTokens).toBe(23288);
    expect(conv.compactions[0]?.summaryTokens).toBeGreaterThan(0);
    const all = flat(conv.items);
    expect(all.length).toBeGreaterThan(snapshot.segments.length);
    // Items before the first compaction are there: the first prompt (line 8) and the reads that followed it.
    const first = conv.items.filter((i) => i.window === 0);
    expect(first.length).toBeGreaterThan(10);
    expect(first.every((i) => i.line < 63)).toBe(true);
    expect(flat(first).some((i) => i.kind === 'prompt' && i.text.startsWith('Review the data file and the store'))).toBe(true);
    for (const c of conv.compactions) {
      expect(conv.items[c.before - 1]?.window).toBe(c.index - 1);
      expect(conv.items[c.before]?.window).toBe(c.index);
    }
    expect(all.filter((i) => i.resident).every((i) => i.window === 2)).toBe(true);
  });

  it('reads the items a compaction kept as their own text, each from its entry of the replacement history', () => {
    const { glassbox } = engine();
    const { conv } = conversationOf(glassbox, ROLLOUT);
    const lines = readFileSync(join(CORPUS, ROLLOUT), 'utf8').split('\n');
    const kept = flat(conv.items).filter((i) => i.line === 63 || i.line === 158);
    const texts = kept.filter((i) => i.kind !== 'compact-summary');
    expect(texts.length).toBeGreaterThan(0);
    for (const item of texts) {
      const history = (JSON.parse(lines[item.line - 1] as string) as { payload: { replacement_history: { content?: { text?: string }[] }[] } }).payload.replacement_history;
      const parts = history.flatMap((e) => (e.content ?? []).map((c) => c.text ?? ''));
      // The whole text of one part of one entry, not a preview of it (one line of at most 160 characters).
      expect(parts).toContain(item.text);
    }
    expect(texts.some((i) => i.text.length > 160 || i.text.includes('\n'))).toBe(true);
  });
});

describe('a Gemini CLI chat whose history was rewritten on one line', () => {
  const CHAT = 'gemini/03-compression/v0.61/gemini-tmp/inventory/chats/session-2026-12-02T04-11-cd91ded2.jsonl';

  it('reads the window before the compression in its order, though every item of it is on one line', () => {
    const { glassbox } = engine();
    const { conv } = conversationOf(glassbox, CHAT);
    expect(conv.compactions).toHaveLength(1);
    const before = conv.items.filter((i) => i.window === 0);
    const onOneLine = before.filter((i) => i.line === before[0]?.line);
    expect(onOneLine.length).toBeGreaterThan(10);
    // A prompt first, then the reply to it; each call carries its result (a result is never read before its call).
    const kinds = onOneLine.map((i) => i.kind);
    expect(kinds.indexOf('prompt')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('prompt')).toBeLessThan(kinds.indexOf('assistant-text'));
    const firstCall = kinds.indexOf('tool-input');
    expect(firstCall).toBeGreaterThan(kinds.indexOf('prompt'));
    expect(kinds.slice(0, firstCall)).not.toContain('tool-result');
  });
});

describe('export', () => {
  it('writes Markdown and HTML with dead items marked, and never over a file', () => {
    const { glassbox, dir } = engine();
    const path = join(CORPUS, 'generated/02-gone-drift-errors/transcript.jsonl');
    const repo = join(CORPUS, 'generated/02-gone-drift-errors/project-after');
    const md = glassbox.conversations.exportSession(path, { repoRoot: repo, format: 'md', out: join(dir, 'a.md') });
    expect(md.writtenTo).toBe(join(dir, 'a.md'));
    const text = readFileSync(join(dir, 'a.md'), 'utf8');
    expect(text).toMatch(/^# /);
    expect(text).toContain('DEAD: ');
    const taken = join(dir, 'taken.html');
    writeFileSync(taken, 'mine');
    expect(() => glassbox.conversations.exportSession(path, { repoRoot: repo, format: 'html', out: taken })).toThrow(Refusal);
    expect(readFileSync(taken, 'utf8')).toBe('mine');
    const html = glassbox.conversations.exportSession(path, { repoRoot: repo, format: 'html', out: null });
    expect(html.text).toContain('<details');
    expect(html.text).toContain('class="item dead');
    expect(existsSync(join(dir, 'b.html'))).toBe(false);
  });

  it('escapes hostile transcript text: nothing in the HTML runs or loads, nothing closes a Markdown fence', () => {
    const { glassbox } = engine();
    const hostile = join(CORPUS, 'hostile/19-hostile-text/transcript.jsonl');
    const html = glassbox.conversations.exportSession(hostile, { repoRoot: null, diskless: true, format: 'html', out: null }).text;
    // The only tags are the export's own.
    const tags = new Set([...html.matchAll(/<\/?([a-zA-Z0-9-]+)/g)].map((m) => m[1]!.toLowerCase()));
    expect([...tags].sort()).toEqual(expect.arrayContaining(['html']));
    for (const t of tags) expect(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'h3', 'dl', 'dt', 'dd', 'main', 'section', 'details', 'summary', 'pre', 'div', 'span', 'p']).toContain(t);
    expect(html).not.toMatch(/<script|\son\w+=|src=|href=|url\(/i);
    expect(html).toContain("default-src 'none'");
    const md = glassbox.conversations.exportSession(hostile, { repoRoot: null, diskless: true, format: 'md', out: null }).text;
    // Every fence opened is closed by the same fence: the text inside never ends one early.
    const fences = md.split('\n').filter((l) => /^`{3,}/.test(l));
    expect(fences.length % 2).toBe(0);
    for (let i = 0; i < fences.length; i += 2) expect(fences[i + 1]).toBe(fences[i]!.replace(/text$/, ''));
  });
});
