// The index with two agents: a Codex rollout appended to is summarised from its saved offset and
// ends with the figures of a full read; a transcript in the other agent's roots is recognised for
// what it is, indexed by its own adapter and reported with file and line; a file no adapter reads is
// listed as unreadable, never summarised as something it is not.
import { appendFileSync, cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeSession } from '@glassbox/analysis';
import { defaultAgents } from '@glassbox/agents';
import { nodeAnalysisPorts, openIndex, type SessionRow } from './index';
import { CORPUS, copyCodexHome, copyScenario, tempTree, type TempTree } from '../test-corpus';

const agents = defaultAgents();
let tree: TempTree;
afterEach(() => tree?.cleanup());

function figures(r: SessionRow) {
  return { agent: r.agent, sessionId: r.sessionId, turns: r.turns, records: r.records, contextTokens: r.contextTokens, usage: r.usage, costUsd: r.costUsd, firstPrompt: r.firstPrompt, lastActivity: r.lastActivity, problems: r.problems, cwd: r.cwd, project: r.project };
}

function env(): { claude: string; codexHome: string; options: { env: Record<string, string>; home: string; workers: number; agents: typeof agents } } {
  tree = tempTree();
  const claude = tree.root('claude');
  const codexHome = join(tree.dir, 'codex-home');
  mkdirSync(join(codexHome, 'sessions'), { recursive: true });
  return { claude, codexHome, options: { env: { CLAUDE_CONFIG_DIR: join(tree.dir, 'claude'), CODEX_HOME: codexHome }, home: tree.dir, workers: 0, agents } };
}

/** A generated scenario's first rollout, copied into a fresh Codex home; its lines. */
function rolloutOf(scenario: string, codexHome: string): { path: string; lines: string[] } {
  const id = (JSON.parse(readFileSync(join(CORPUS, 'codex', scenario, 'manifest.json'), 'utf8')) as { session_ids: string[] }).session_ids[0] as string;
  const path = copyCodexHome(codexHome).find((p) => p.endsWith(`${id}.jsonl`)) as string;
  return { path, lines: readFileSync(path, 'utf8').split('\n').filter(Boolean) };
}

describe('a Codex rollout that grows', () => {
  async function sameAsFullRead(path: string, row: SessionRow, options: ReturnType<typeof env>['options']): Promise<void> {
    const fresh = openIndex({ dataDir: join(tree.dir, 'fresh'), ...options });
    await fresh.refresh();
    expect(figures(row)).toEqual(figures(fresh.get(path)[0] as SessionRow));
    expect(row.contextTokens).toBe(analyzeSession(agents.byId('codex').locator.load(path).session, nodeAnalysisPorts()).context.reportedTokens);
    expect(row.stage).toBe('analysed');
    await fresh.close();
  }

  it('03: appended in the middle of a reply (its items read, its usage not yet), only the new bytes are read', async () => {
    const { codexHome, options } = env();
    const { path, lines } = rolloutOf('03-long-session-compaction', codexHome);
    const cut = lines.map((l, i) => (l.includes('"type":"token_count"') ? i : -1)).filter((i) => i >= 0).pop() as number;
    writeFileSync(path, lines.slice(0, cut).join('\n') + '\n');
    const index = openIndex({ dataDir: join(tree.dir, 'a'), ...options });
    await index.refresh();
    const rest = lines.slice(cut).join('\n') + '\n';
    appendFileSync(path, rest);
    const r = await index.refresh();
    expect([r.appended, r.bytesRead, r.opened]).toEqual([1, Buffer.byteLength(rest), [path]]);
    await sameAsFullRead(path, index.get(path)[0] as SessionRow, options);
    await index.close();
  });

  it('01: resumed after every line, it ends with the figures of a full read', async () => {
    const { codexHome, options } = env();
    const { path, lines } = rolloutOf('01-shell-reads-and-patch', codexHome);
    writeFileSync(path, lines[0] + '\n');
    const index = openIndex({ dataDir: join(tree.dir, 'a'), ...options });
    await index.refresh({ analyze: false });
    let resumed = 0;
    for (const line of lines.slice(1)) {
      appendFileSync(path, line + '\n');
      resumed += (await index.refresh({ analyze: false })).appended;
    }
    expect(resumed).toBe(lines.length - 1);
    await index.refresh();
    await sameAsFullRead(path, index.get(path)[0] as SessionRow, options);
    await index.close();
  });
});

describe('transcripts in the wrong agent’s roots', () => {
  it('a Codex rollout among Claude Code’s projects and a Claude Code transcript in CODEX_HOME are each indexed by their own adapter, with a notice naming file and line', async () => {
    const { claude, codexHome, options } = env();
    copyScenario(claude, '01-superseded-reads');
    const rollout = join(CORPUS, 'codex/02-duplicates-deletes-errors/sessions/2026/12/01/rollout-2026-12-01T03-03-22-01a22f8e-9418-72f1-b33f-993bc88aed47.jsonl');
    const strayRollout = join(claude, '-stray', basename(rollout));
    mkdirSync(join(claude, '-stray'));
    cpSync(rollout, strayRollout);
    const transcript = join(CORPUS, 'generated/02-gone-drift-errors/claude-project');
    const claudeFile = readFileSync(join(transcript, readdirSync(transcript).find((n) => n.endsWith('.jsonl')) as string));
    const strayTranscript = join(codexHome, 'sessions/2026/12/02/rollout-2026-12-02T00-00-00-01a22f8e-0000-7000-8000-000000000001.jsonl');
    mkdirSync(join(codexHome, 'sessions/2026/12/02'), { recursive: true });
    writeFileSync(strayTranscript, claudeFile);

    const index = openIndex({ dataDir: tree.dir, ...options });
    const report = await index.refresh();
    expect(report.notices).toEqual(
      expect.arrayContaining([
        `${strayRollout}:1: a Codex CLI session among Claude Code's sessions; indexed as Codex CLI`,
        `${strayTranscript}:1: a Claude Code session among Codex CLI's sessions; indexed as Claude Code`,
      ]),
    );
    const a = index.get(strayRollout)[0] as SessionRow;
    const b = index.get(strayTranscript)[0] as SessionRow;
    expect([a.agent, a.stage, a.root, a.sessionId, a.project]).toEqual(['codex', 'analysed', claude, '01a22f8e-9418-72f1-b33f-993bc88aed47', 'project']);
    expect([b.agent, b.stage, b.root]).toEqual(['claude-code', 'analysed', join(codexHome, 'sessions')]);
    // Read by their own adapters: the figures of the same files where they belong.
    for (const row of [a, b]) {
      const { session, subagents } = agents.byId(row.agent).locator.load(row.path);
      expect(row.turns).toBeGreaterThan(0);
      expect(row.contextTokens).toBe(analyzeSession(session, nodeAnalysisPorts(), { subagents }).context.reportedTokens);
      expect(row.analysisError).toBeNull();
    }
    // A later refresh keeps them where they were put and does not open them again.
    const again = await index.refresh();
    expect(again.opened).toEqual([]);
    expect(index.get(strayRollout)[0]?.agent).toBe('codex');
    await index.close();
  });

  it('a JSON-lines file no adapter reads is listed as unreadable, with file and line, and never summarised', async () => {
    const { claude, options } = env();
    mkdirSync(join(claude, '-notes'));
    const notes = join(claude, '-notes', 'notes.jsonl');
    writeFileSync(notes, '\n{"note":"not a transcript"}\n{"note":"nor this"}\n');
    const index = openIndex({ dataDir: tree.dir, ...options });
    const report = await index.refresh();
    expect(report.unreadable).toBe(1);
    const row = index.get(notes)[0] as SessionRow;
    expect([row.stage, row.turns, row.records, row.problemNote]).toEqual(['unreadable', 0, 0, `${notes}:2: not a Claude Code transcript; not read`]);
    await index.close();
  });
});
