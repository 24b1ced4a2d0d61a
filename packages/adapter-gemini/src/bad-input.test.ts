// Recognition by content and what a file that is not a whole Gemini chat gets: a clear problem that
// names the file and line, and nothing read from it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiFormat } from './agent';
import { parseChatLines } from './parse-lines';
import { CLAUDE_TRANSCRIPT, CODEX_ROLLOUT_DIR, chatFiles, fixture, fixtures, linesOf, mainChat } from '@glassbox/test-support/gemini/corpus';

const codexRollout = join(CODEX_ROLLOUT_DIR, readdirSync(CODEX_ROLLOUT_DIR).filter((f) => f.endsWith('.jsonl')).sort()[0] as string);

describe('recognition from the first lines', () => {
  it('knows every chat file of every generation, subagents and resume stubs included', () => {
    const all = fixtures().flatMap(chatFiles);
    expect(all.length).toBeGreaterThanOrEqual(12);
    for (const path of all) expect(geminiFormat.recognise(linesOf(path).slice(0, 40)), path).toEqual({ verdict: 'yes' });
  });

  it('names what another agent’s transcript is', () => {
    expect(geminiFormat.recognise(linesOf(CLAUDE_TRANSCRIPT).slice(0, 40))).toEqual({ verdict: 'no', what: 'a Claude Code transcript' });
    expect(geminiFormat.recognise(linesOf(codexRollout).slice(0, 40))).toEqual({ verdict: 'no', what: 'a Codex CLI rollout' });
  });

  it('refuses other JSON and cannot tell from nothing', () => {
    expect(geminiFormat.recognise(['{', '  "name": "glassbox",', '  "private": true'])).toEqual({ verdict: 'no', what: 'a JSON document that is not a Gemini CLI chat' });
    expect(geminiFormat.recognise(['{"hello":"world"}'])).toEqual({ verdict: 'no' });
    expect(geminiFormat.recognise(['', ''])).toEqual({ verdict: 'unknown' });
  });
});

describe('bad input', () => {
  it('a truncated chat document (0.38, as a read of a half-rewritten file meets it) is refused with the line where it breaks', () => {
    const path = mainChat(fixture('01-reads-edits-gone', '0.38'));
    const lines = linesOf(path);
    const half = lines.slice(0, Math.floor(lines.length / 2));
    const s = parseChatLines(half, { path });
    expect(s.order).toEqual([]);
    const p = s.problems[0];
    expect(p?.code).toBe('document_incomplete');
    expect(p?.severity).toBe('error');
    expect(p?.message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${half.length}: the chat document is incomplete or damaged`));
  });

  it('a document cut inside a string is refused where JSON.parse stops, not read in part', () => {
    const path = mainChat(fixture('03-compression', '0.28'));
    const lines = linesOf(path);
    const at = lines.findIndex((l) => l.includes('"output"'));
    const cut = [...lines.slice(0, at), (lines[at] as string).slice(0, 40)];
    const s = parseChatLines(cut, { path });
    expect(s.toolCalls.size).toBe(0);
    expect(s.problems[0]?.message).toContain(`${path}:`);
    expect(s.problems[0]?.message).toContain('incomplete or damaged');
  });

  it('a log whose last line is half-written (a running client) reads the rest and says so', () => {
    const path = mainChat(fixture('01-reads-edits-gone', '0.61'));
    const lines = linesOf(path);
    const whole = parseChatLines(lines.slice(0, -1), { path });
    const cut = [...lines.slice(0, -1), (lines[lines.length - 1] as string).slice(0, 10)];
    const parser = geminiFormat.createParser({ path });
    let offset = 0;
    cut.forEach((t, i) => {
      parser.push(t, i + 1, offset, t.length);
      offset += t.length + 1;
    });
    const s = parser.finish(false);
    expect(s.order).toEqual(whole.order);
    expect(s.problems).toContainEqual(expect.objectContaining({ code: 'torn_last_line', line: cut.length }));
  });

  it('another agent’s transcript is refused, naming it', () => {
    const cc = parseChatLines(linesOf(CLAUDE_TRANSCRIPT), { path: CLAUDE_TRANSCRIPT });
    expect(cc.problems[0]?.message).toBe(`${CLAUDE_TRANSCRIPT}:1: this is a Claude Code transcript, not a Gemini CLI chat`);
    const cx = parseChatLines(linesOf(codexRollout), { path: codexRollout });
    expect(cx.problems[0]?.message).toBe(`${codexRollout}:1: this is a Codex CLI rollout, not a Gemini CLI chat`);
    expect(cx.order).toEqual([]);
  });

  it('an empty file is one problem', () => {
    const s = parseChatLines([], { path: 'x/session-a.jsonl' });
    expect(s.problems).toEqual([{ code: 'file_empty', severity: 'error', file: 'x/session-a.jsonl', message: 'x/session-a.jsonl: the file is empty' }]);
  });

  it('a line that is not JSON inside a log is skipped with a warning, as the client skips it', () => {
    const path = mainChat(fixture('02-subagent-error', '0.61'));
    const lines = linesOf(path);
    const broken = [...lines.slice(0, 3), '{"id": "broken', ...lines.slice(3)];
    const s = parseChatLines(broken, { path });
    expect(s.problems).toContainEqual(expect.objectContaining({ code: 'invalid_json', line: 4, severity: 'warning' }));
    expect(s.order.length).toBe(parseChatLines(lines, { path }).order.length);
  });
});
