import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../main';
import type { CliIO } from '../io';

const CORPUS = resolve(import.meta.dirname, '../../../../fixtures/corpus');
const scenario = (name: string): { file: string; repo: string; projects: string } => {
  const projects = join(CORPUS, 'generated', name, 'claude-project');
  return { file: join(projects, readdirSync(projects).find((f) => f.endsWith('.jsonl')) ?? ''), repo: join(CORPUS, 'generated', name, 'project-after'), projects };
};

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), env: { CODEX_HOME: '/nonexistent/glassbox-test-codex-home', GEMINI_CLI_HOME: '/nonexistent/glassbox-test-gemini-home', ...env }, color: false, isTTY: false, exitCode: 0 };
  const code = await main(['node', 'glassbox', ...args], io);
  return { code, out, err };
}

describe('glassbox inspect', () => {
  it('names a record type it does not know once, in the notes, and counts it nowhere (a variant of a 2.1.332 transcript)', async () => {
    const s = scenario('19-newest-client-window');
    const text = (await import('node:fs')).readFileSync(s.file, 'utf8').replaceAll('{"type":"atis-latch"', '{"type":"atis-latch-v2"');
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-inspect-'));
    const variant = join(dir, 'variant.jsonl');
    writeFileSync(variant, text);
    const before = JSON.parse((await run(['inspect', s.file, '--json', '--repo', s.repo])).out);
    const after = JSON.parse((await run(['inspect', variant, '--json', '--repo', s.repo])).out);
    expect(after.context.estimatedTokens).toBe(before.context.estimatedTokens);
    expect(after.segments.length).toBe(before.segments.length);
    const shown = (await run(['inspect', variant, '--repo', s.repo])).out;
    expect(shown.match(/"atis-latch-v2"/g)).toHaveLength(1);
    expect(shown).toMatch(/Notes \(1\)/);
  });

  it('sizes a 2.1.332 session by what its client recorded it sent, on the model it resumes on', async () => {
    const s = scenario('19-newest-client-window');
    const doc = JSON.parse((await run(['inspect', s.file, '--json', '--repo', s.repo])).out);
    expect(doc.request.model).toBe('claude-opus-5-5');
    expect(doc.request.notSent.map((n: { reason: string }) => n.reason)).toContain('the client does not send prompt_snapshot attachments');
    expect(doc.segments.some((x: { source: { label: string } }) => x.source.label === 'prompt snapshot')).toBe(false);
  });

  it('--model names the next request\'s model: its reasoning is counted, the other model\'s is not', async () => {
    const s = scenario('11-model-switch');
    const byDefault = JSON.parse((await run(['inspect', s.file, '--json'])).out);
    expect(byDefault.request.model).toBe('claude-sonnet-4-6');
    const opus = await run(['inspect', s.file, '--json', '--model', 'claude-opus-4-8']);
    expect(opus.code).toBe(0);
    const doc = JSON.parse(opus.out);
    expect(doc.request).toMatchObject({ model: 'claude-opus-4-8', modelBasis: 'named by the caller' });
    const thinking = (d: { segments: { kind: string; id: string }[] }) => d.segments.filter((x) => x.kind === 'thinking').map((x) => x.id);
    expect(thinking(doc)).toHaveLength(2);
    expect(thinking(doc).filter((id) => thinking(byDefault).includes(id))).toEqual([]);
    const text = (await run(['inspect', s.file])).out;
    expect(text).toContain('next request on claude-sonnet-4-6');
    expect(text).toContain('reasoning by claude-opus-4-8, not sent to claude-sonnet-4-6');
    const bad = await run(['inspect', s.file, '--model', 'two words']);
    expect(bad.code).toBe(2);
  });

  it('prints the JSON contract: session, context, resident segments with classes and tool ids, reclaimable, problems', async () => {
    const s = scenario('02-gone-drift-errors');
    const { code, out } = await run(['inspect', s.file, '--repo', s.repo, '--json']);
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.session).toMatchObject({ id: '2729d20d-7965-4d6d-bf47-53ae8f2e1750', cwd: '/tmp/cc-harness-work/02-gone-drift-errors/project', version: '2.1.197' });
    expect(Object.keys(doc.context)).toEqual(expect.arrayContaining(['reportedTokens', 'estimatedTokens', 'unattributedTokens', 'compactions']));
    const classes = new Set(doc.segments.map((x: { class: string }) => x.class));
    expect([...classes]).toEqual(expect.arrayContaining(['live', 'gone', 'stale-drift', 'stale-superseded']));
    type Seg = { kind: string; class: string; toolUseId?: string; proof?: { class: string } };
    const segments = doc.segments as Seg[];
    for (const seg of segments) expect(seg).toHaveProperty('source.type');
    // Tool inputs and results carry their tool id; every dead segment carries the proof of its class.
    const tool = segments.filter((seg) => seg.kind === 'tool-result' || seg.kind === 'tool-input');
    const dead = segments.filter((seg) => seg.class !== 'live');
    expect([tool.length, dead.length]).toEqual([38, 6]);
    expect(tool.filter((seg) => !/^toolu_/.test(seg.toolUseId ?? ''))).toEqual([]);
    expect(dead.filter((seg) => seg.proof?.class !== seg.class)).toEqual([]);
    expect(doc.reclaimable).toHaveProperty('byClass.gone');
    expect(Array.isArray(doc.problems)).toBe(true);
  });

  it('finds a session by id under CLAUDE_CONFIG_DIR and renders a report that fits 100 columns', async () => {
    const s = scenario('01-superseded-reads');
    const home = mkdtempSync(join(tmpdir(), 'glassbox-home-'));
    const projects = join(home, 'projects');
    await import('node:fs').then((fs) => fs.cpSync(s.projects, join(projects, '-tmp-project'), { recursive: true }));
    const found = await run(['inspect', '8bb0c1ec-3204-4d2c-aebe-2e1090ff0ddb'], { CLAUDE_CONFIG_DIR: `${join(home, 'elsewhere')},${home}` });
    expect(found.code).toBe(0);
    expect(found.out).toContain('stale-superseded');
    for (const line of found.out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('says what elision would save, apart from the reclaimable figure, at the thresholds given', async () => {
    const s = scenario('03-large-outputs');
    const doc = JSON.parse((await run(['inspect', s.file, '--json', '--repo', s.repo, '--protect', '0'])).out);
    expect(doc.elision.overTokens).toBe(4000);
    expect(doc.elision.results).toBeGreaterThan(0);
    expect(doc.elision.netTokens).toBeGreaterThan(0);
    expect(doc.elision.netTokens).toBeLessThan(doc.elision.tokens);
    // Elision never enters the figures every view shows: the same reclaimable with or without it asked.
    const lower = JSON.parse((await run(['inspect', s.file, '--json', '--repo', s.repo, '--protect', '0', '--elide-over', '1000'])).out);
    expect(lower.elision.results).toBeGreaterThan(doc.elision.results);
    expect(lower.reclaimable).toEqual(doc.reclaimable);
    expect(doc.segments.some((seg: { class: string }) => seg.class === 'elided')).toBe(false);
    const bad = await run(['inspect', s.file, '--elide-over', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--elide-over lots');
  });

  it('exits 2 with a message naming the file for bad input', async () => {
    const missing = await run(['inspect', '/nonexistent/session.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('/nonexistent/session.jsonl');
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-cli-'));
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const e = await run(['inspect', empty]);
    expect(e.code).toBe(2);
    expect(e.err).toContain('empty.jsonl: the file is empty');
    // JSON lines no agent's adapter reads are refused; a Codex rollout is read by the Codex adapter.
    const notes = join(dir, 'notes.jsonl');
    writeFileSync(notes, '{"note":"not a transcript"}\n{"note":"nor this"}\n');
    const other = await run(['xray', notes]);
    expect(other.code).toBe(2);
    expect(other.err).toContain('not a Claude Code transcript');
    const codex = join(CORPUS, 'public/MoonLadderStudios__MoonMind');
    expect((await run(['xray', join(codex, readdirSync(codex).find((f) => f.endsWith('.jsonl')) ?? '')])).code).toBe(0);
    const unknownId = await run(['cost', 'no-such-session-id'], { CLAUDE_CONFIG_DIR: dir });
    expect(unknownId.code).toBe(2);
  });
});

describe('glassbox xray and cost', () => {
  it('xray and cost reports fit 100 columns', async () => {
    for (const name of ['01-superseded-reads', '04-subagent-compact-multiturn']) {
      const s = scenario(name);
      for (const cmd of ['xray', 'cost']) {
        const { code, out } = await run([cmd, s.file]);
        expect(code).toBe(0);
        for (const line of out.split('\n')) expect(line.length, `${cmd}: ${line}`).toBeLessThanOrEqual(100);
      }
    }
  });

  it('xray lists the top sources with per-class totals', async () => {
    const s = scenario('01-superseded-reads');
    const { code, out } = await run(['xray', s.file, '--json']);
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.sources[0].label).toBe('src/inventory.py');
    expect(doc.byClass['stale-superseded'].tokens).toBeGreaterThan(0);
  });

  it('cost counts each API response once, prices cache writes by lifetime, and charges nothing for synthetic messages', async () => {
    const s = scenario('04-subagent-compact-multiturn');
    const { code, out } = await run(['cost', s.file, '--json']);
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    // The placeholder replies the client wrote itself cost nothing and are no model: no "<synthetic> $0" row.
    expect(doc.byModel.map((m: { model: string }) => m.model)).not.toContain('<synthetic>');
    expect(doc.byModel.reduce((n: number, m: { cost: number }) => n + m.cost, 0)).toBeCloseTo(doc.total.cost, 9);
    expect(doc.total.cost).toBeGreaterThan(0);
    expect(doc.subagents.responses).toBeGreaterThan(0);
    const turnsTotal = doc.turns.reduce((n: number, t: { responses: number }) => n + t.responses, 0);
    expect(turnsTotal + doc.subagents.responses).toBe(doc.total.responses);
  });

  it('uses a price table given on the command line', async () => {
    const s = scenario('01-superseded-reads');
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-prices-'));
    const prices = join(dir, 'prices.json');
    writeFileSync(prices, JSON.stringify({ asOf: '2026-01-01', source: 'test', models: [{ match: 'opus', label: 'x', input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0 }] }));
    const { out } = await run(['cost', s.file, '--prices', prices, '--json']);
    expect(JSON.parse(out).total.cost).toBe(0);
    writeFileSync(prices, '{"models": [{"match": "opus"}]}');
    const bad = await run(['cost', s.file, '--prices', prices]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('prices.json');
  });
});
