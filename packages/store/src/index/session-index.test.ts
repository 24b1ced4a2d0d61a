import { appendFileSync, existsSync, readFileSync, readdirSync, renameSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeSession, computeCost } from '@glassbox/analysis';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { CLAUDE_PRICES } from '@glassbox/adapter-claude-code';
import Database from 'better-sqlite3';
import { nodeAnalysisPorts, openIndex, type SessionRow } from './index';
import { CORPUS, SCENARIOS, copyPublic, copyScenario, tempTree, type TempTree } from '../test-corpus';
import { SCHEMA_VERSION } from './migrations';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

let tree: TempTree;
afterEach(() => tree?.cleanup());

function setup(): { root: string; dbPath: string } {
  tree = tempTree();
  return { root: tree.root('a'), dbPath: join(tree.dir, 'data', 'index.db') };
}

/** The figures that must not depend on how the file was read (at once, appended, resumed). */
function figures(r: SessionRow) {
  return {
    sessionId: r.sessionId,
    turns: r.turns,
    records: r.records,
    contextTokens: r.contextTokens,
    usage: r.usage,
    costUsd: r.costUsd,
    title: r.title,
    firstPrompt: r.firstPrompt,
    lastActivity: r.lastActivity,
    problems: r.problems,
  };
}

/** The transcript split at a line boundary near the given fraction of its bytes. */
function splitAtLine(text: Buffer, fraction: number): [Buffer, Buffer] {
  const cut = text.indexOf(10, Math.floor(text.length * fraction)) + 1;
  return [text.subarray(0, cut), text.subarray(cut)];
}

describe('a cancelled refresh', () => {
  it('leaves the files it did not read as listed, and the next refresh reads them', async () => {
    const { root, dbPath } = setup();
    for (const s of SCENARIOS) copyScenario(root, s);
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 2 });
    const stop = new AbortController();
    const cancelled = await index.refresh({
      signal: stop.signal,
      onProgress: (p) => {
        // Cancelled once the list is made, as the summaries are about to be read: none of them runs.
        if (p.phase === 'summary' && p.files === 0) stop.abort();
      },
    });
    const after = index.list({ includeSubagents: true });
    expect(after.length).toBe(cancelled.files);
    expect(after.every((r) => r.stage === 'listed')).toBe(true);
    const again = await index.refresh();
    expect(again.opened.length).toBeGreaterThan(0);
    expect(index.list({ includeSubagents: true }).every((r) => r.stage === 'analysed' || r.kind === 'subagent')).toBe(true);
    await index.close();
  });
});

describe('first index of real corpus folders', () => {
  it('lists every session with identity, totals that agree with computeCost, linked subagents and search', async () => {
    const { root, dbPath } = setup();
    for (const s of SCENARIOS) copyScenario(root, s);
    copyPublic(root, 'd-kimuson__claude-code-viewer');
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    const report = await index.refresh({ analyze: false });
    const rows = index.list();
    const sessionFiles = readdirSync(root).flatMap((p) => readdirSync(join(root, p)).filter((n) => n.endsWith('.jsonl')));
    expect(rows.length).toBe(sessionFiles.length);
    expect(report.added).toBe(report.files);
    expect(rows.every((r) => r.stage === 'summarised')).toBe(true);

    // The subagent scenario: its subagent file is a linked row, merged into the session's cost.
    const sub = rows.find((r) => r.project === '-04-subagent-compact-multiturn');
    expect(sub?.subagents).toBe(1);
    const [main, agent] = index.get(sub?.sessionId ?? '');
    expect(agent?.kind).toBe('subagent');
    expect(agent?.parentPath).toBe(main?.path);

    // Usage and cost per session agree with the analysis package's computeCost over the same files.
    for (const r of rows) {
      const { session, subagents } = loadSessionWithSubagents(r.path);
      const expected = computeCost(session, subagents, CLAUDE_PRICES);
      const files = index.get(r.path).concat(index.get(r.sessionId).filter((f) => f.parentPath === r.path));
      const sum = (k: keyof SessionRow['usage']) => files.reduce((n, f) => n + f.usage[k], 0);
      expect({ id: r.sessionId, input: sum('input'), output: sum('output'), cc: sum('cacheCreation'), cr: sum('cacheRead') }).toEqual({
        id: r.sessionId,
        input: expected.total.usage.inputTokens,
        output: expected.total.usage.outputTokens,
        cc: expected.total.usage.cacheCreationTokens,
        cr: expected.total.usage.cacheReadTokens,
      });
      // A session with a model no catalogue names has no cost, in the list as in computeCost (fixture 20).
      if (expected.total.cost === null) expect(r.totalCostUsd).toBeNull();
      else expect(r.totalCostUsd).toBeCloseTo(expected.total.cost, 9);
      // The reported context agrees with the full analysis's.
      expect(r.contextTokens).toBe(analyzeSession(session, nodeAnalysisPorts()).context.reportedTokens);
    }

    // Full-text search over prompts, paths and commands.
    const superseded = rows.find((r) => r.project === '-01-superseded-reads');
    expect(index.list({ search: 'low-stock report' }).map((r) => r.path)).toContain(superseded?.path);
    expect(index.list({ search: 'no-such-word-anywhere' })).toEqual([]);
    expect(index.list({ project: '05-auto' }).map((r) => r.project)).toEqual(['-05-autocompact']);
    expect(index.list({ limit: 2 })).toHaveLength(2);
    await index.close();
  });

  it('gives the same rows with worker threads and with the full analysis', async () => {
    const { root, dbPath } = setup();
    copyScenario(root, '01-superseded-reads');
    copyScenario(root, '04-subagent-compact-multiturn');
    const inline = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await inline.refresh({ analyze: false });
    const a = inline.list().map(figures);
    await inline.close();
    const pooled = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'other.db'), roots: [root], workers: 2 });
    await pooled.refresh();
    const rows = pooled.list();
    expect(rows.map(figures)).toEqual(a);
    expect(rows.every((r) => r.stage === 'analysed')).toBe(true);
    const superseded = rows.find((r) => r.project === '-01-superseded-reads');
    expect(superseded?.reclaimableByClass?.['stale-superseded']).toBeGreaterThan(0);
    // A subagent file that grows makes its session's analysis stale, and it is run again.
    const [session, agent] = pooled.get(rows.find((r) => r.subagents > 0)?.sessionId ?? '');
    appendFileSync(agent?.path ?? '', '\n');
    const again = await pooled.refresh();
    expect(again.analysed).toBe(1);
    expect(pooled.get(session?.path ?? '')[0]?.stage).toBe('analysed');
    await pooled.close();
  });
});

describe('incremental re-index', () => {
  it('opens no file when nothing changed (fingerprints match)', async () => {
    const { root, dbPath } = setup();
    for (const s of SCENARIOS) copyScenario(root, s);
    let index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    const first = await index.refresh({ analyze: false });
    expect(first.opened.length).toBeGreaterThan(0);
    await index.close();
    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    const again = await index.refresh({ analyze: false });
    expect(again.opened).toEqual([]);
    expect(again.bytesRead).toBe(0);
    expect(again.unchanged).toBe(first.files);
    await index.close();
  });

  it('reads only the appended bytes, waits for a half-written line, and ends with the same figures as a full read', async () => {
    const { root, dbPath } = setup();
    const project = copyScenario(root, '02-gone-drift-errors');
    const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
    const path = join(project, name);
    const whole = readFileSync(path);
    const [head, rest] = splitAtLine(whole, 0.4);
    writeFileSync(path, head);

    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    const before = index.get(path)[0] as SessionRow;

    // Half of the next part, ending mid-line: only complete lines are read.
    const [part, tail] = splitAtLine(rest, 0.5);
    const partial = Buffer.concat([part, tail.subarray(0, 50)]);
    appendFileSync(path, partial);
    const r1 = await index.refresh({ analyze: false });
    expect(r1.opened).toEqual([path]);
    expect(r1.appended).toBe(1);
    expect(r1.bytesRead).toBe(partial.length);

    appendFileSync(path, tail.subarray(50));
    const r2 = await index.refresh({ analyze: false });
    expect(r2.appended).toBe(1);
    expect(r2.bytesRead).toBe(tail.length);
    const after = index.get(path)[0] as SessionRow;
    expect(after.turns).toBeGreaterThan(before.turns);
    expect(after.problems).toBe(0);

    const fresh = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'fresh.db'), roots: [root], workers: 0 });
    await fresh.refresh({ analyze: false });
    expect(figures(after)).toEqual(figures(fresh.get(path)[0] as SessionRow));
    await fresh.close();
    await index.close();
  });

  it('an index written before checkpoints had their own table moves them to it, and reads each file again once (its readers changed since)', async () => {
    const { root, dbPath } = setup();
    const project = copyScenario(root, '02-gone-drift-errors');
    const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
    const path = join(project, name);
    const [head, rest] = splitAtLine(readFileSync(path), 0.5);
    writeFileSync(path, head);
    let index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    await index.close();
    // The database as schema 3 left it: the checkpoint in files.state, no file_state table.
    const db = new Database(dbPath);
    db.exec(`UPDATE files SET state = (SELECT state FROM file_state WHERE file_id = files.id);
      DROP TRIGGER files_state_gone; DROP TABLE file_state; DROP TRIGGER files_usage_gone; DROP TABLE usage_hours;
      DELETE FROM schema_migrations WHERE version >= 4;`);
    expect((db.prepare('SELECT count(*) AS n FROM files WHERE state IS NOT NULL').get() as { n: number }).n).toBe(1);
    db.close();

    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    appendFileSync(path, rest);
    const r = await index.refresh({ analyze: false });
    // Migration 5 drops every checkpoint an earlier reader made: the whole file is read, not the append.
    expect([r.appended, r.bytesRead]).toEqual([0, head.length + rest.length]);
    const fresh = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'fresh.db'), roots: [root], workers: 0 });
    await fresh.refresh({ analyze: false });
    expect(figures(index.get(path)[0] as SessionRow)).toEqual(figures(fresh.get(path)[0] as SessionRow));
    await fresh.close();
    await index.close();
    const after = new Database(dbPath, { readonly: true });
    expect(after.prepare('SELECT count(*) AS n FROM files WHERE state IS NOT NULL').get()).toEqual({ n: 0 });
    expect(after.prepare('SELECT count(*) AS n FROM file_state').get()).toEqual({ n: 1 });
    // A row removed takes its checkpoint with it.
    after.close();
    unlinkSync(path);
    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    await index.close();
    const gone = new Database(dbPath, { readonly: true });
    expect(gone.prepare('SELECT count(*) AS n FROM file_state').get()).toEqual({ n: 0 });
    gone.close();
  });

  it('an index made by earlier readers (schema 4) reads and analyses every unchanged file again, once', async () => {
    const { root, dbPath } = setup();
    const project = copyScenario(root, '02-gone-drift-errors');
    const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
    const size = readFileSync(join(project, name)).length;
    let index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh();
    await index.close();
    const db = new Database(dbPath);
    // The database as schema 4 left it.
    db.exec('DROP TRIGGER files_usage_gone; DROP TABLE usage_hours; DELETE FROM schema_migrations WHERE version >= 5;');
    db.close();

    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    const again = await index.refresh();
    expect([again.unchanged, again.bytesRead, again.analysed]).toEqual([0, size, 1]);
    const settled = await index.refresh();
    expect([settled.unchanged, settled.bytesRead, settled.analysed]).toEqual([1, 0, 0]);
    await index.close();
  });

  it('resumed after every single line, ends with the same figures as one full read (replies split by parallel calls included)', async () => {
    const { root, dbPath } = setup();
    const project = copyScenario(root, '01-superseded-reads');
    const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
    const path = join(project, name);
    const whole = readFileSync(path);
    // The scenario has parallel reads: one reply's records with tool results between them.
    const lines = whole.toString('utf8').split('\n').filter(Boolean);
    const ids = lines.map((l) => (JSON.parse(l) as { message?: { id?: string } }).message?.id).filter(Boolean);
    expect(ids.some((id, i) => ids.indexOf(id) < i - 1)).toBe(true);
    writeFileSync(path, '');
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    let resumed = 0;
    for (const line of lines) {
      appendFileSync(path, line + '\n');
      const r = await index.refresh({ analyze: false });
      resumed += r.appended;
    }
    expect(resumed).toBeGreaterThan(lines.length - 3);
    const fresh = openIndex({ agents: TEST_AGENTS, dbPath: join(tree.dir, 'fresh.db'), roots: [root], workers: 0 });
    await fresh.refresh({ analyze: false });
    expect(figures(index.get(path)[0] as SessionRow)).toEqual(figures(fresh.get(path)[0] as SessionRow));
    expect(index.list({ search: 'low-stock' })).toHaveLength(1);
    await fresh.close();
    await index.close();
  });

  it('re-reads a truncated file and a replaced one (new inode), and removes a deleted one', async () => {
    const { root, dbPath } = setup();
    const project = copyScenario(root, '01-superseded-reads');
    copyScenario(root, '05-autocompact');
    const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
    const path = join(project, name);
    const whole = readFileSync(path);
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    const full = figures(index.get(path)[0] as SessionRow);

    const [head] = splitAtLine(whole, 0.3);
    truncateSync(path, head.length);
    const t = await index.refresh({ analyze: false });
    expect(t.rewritten).toBe(1);
    expect(t.opened).toEqual([path]);
    const truncated = index.get(path)[0] as SessionRow;
    expect(truncated.usage.apiMessages).toBeLessThan(full.usage.apiMessages);

    // An atomic replace (write a temp file, rename over): a new inode, read from the start.
    const tmp = join(project, '.tmp-write');
    writeFileSync(tmp, whole);
    renameSync(tmp, path);
    const rep = await index.refresh({ analyze: false });
    expect(rep.rewritten).toBe(1);
    expect(figures(index.get(path)[0] as SessionRow)).toEqual(full);

    unlinkSync(path);
    const del = await index.refresh({ analyze: false });
    expect(del.removed).toBe(1);
    expect(index.get(path)).toEqual([]);
    expect(index.list().map((r) => r.project)).toEqual(['-05-autocompact']);
    await index.close();
    // Its search rows went with it.
    const db = new Database(dbPath, { readonly: true });
    expect(db.prepare(`SELECT count(*) AS n FROM search WHERE rowid / ${2 ** 21} NOT IN (SELECT id FROM files)`).get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM search').get()).toEqual({ n: 1 });
    db.close();
  });
});

describe('a database that cannot be trusted', () => {
  it('moves a corrupt database aside and rebuilds it, with a message', async () => {
    const { root, dbPath } = setup();
    copyScenario(root, '01-superseded-reads');
    let index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    await index.close();
    writeFileSync(dbPath, Buffer.from('this is not a sqlite database, it was overwritten '.repeat(200)));
    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    expect(index.notices.join('\n')).toMatch(/damaged.*moved .*index\.db to .*index\.db\.corrupt-.* and rebuilt/);
    const aside = readdirSync(join(tree.dir, 'data')).filter((n) => n.startsWith('index.db.corrupt-') && !/-wal$|-shm$/.test(n));
    expect(aside).toHaveLength(1);
    const report = await index.refresh({ analyze: false });
    expect(report.added).toBe(1);
    expect(index.list()).toHaveLength(1);
    await index.close();
  });

  it('notices damage inside a database that opens (a page overwritten) and rebuilds it', async () => {
    const { root, dbPath } = setup();
    for (const s of SCENARIOS) copyScenario(root, s);
    let index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    const count = index.list().length;
    await index.close();
    const bytes = readFileSync(dbPath);
    // Keep the header and the first pages (the schema); overwrite the table pages after them.
    bytes.fill(0x5a, 4 * 4096);
    writeFileSync(dbPath, bytes);
    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    const listed = index.list();
    const report = await index.refresh({ analyze: false });
    expect([...index.notices, ...report.notices].join('\n')).toMatch(/damaged/);
    expect(listed.length === 0 || listed.length === count).toBe(true);
    expect(index.list()).toHaveLength(count);
    expect(readdirSync(join(tree.dir, 'data')).some((n) => n.startsWith('index.db.corrupt-'))).toBe(true);
    await index.close();
  });

  it('moves a database from a newer schema aside instead of using it', async () => {
    const { root, dbPath } = setup();
    copyScenario(root, '01-superseded-reads');
    let index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh({ analyze: false });
    await index.close();
    const db = new Database(dbPath);
    db.prepare("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (999, 'from the future', 'x', 'now')").run();
    db.close();
    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    expect(index.notices.join('\n')).toContain(`newer Glassbox (schema 999; this build knows up to ${SCHEMA_VERSION})`);
    expect(readdirSync(join(tree.dir, 'data')).some((n) => n.startsWith('index.db.newer-schema-'))).toBe(true);
    expect(index.list()).toEqual([]);
    await index.refresh({ analyze: false });
    expect(index.list()).toHaveLength(1);
    await index.close();
  });
});

describe('discovery', () => {
  it('records an unreadable file as a row with its problem and indexes the rest', async () => {
    const { root, dbPath } = setup();
    const project = copyScenario(root, '01-superseded-reads');
    // A link to itself cannot be opened by anyone, root included.
    symlinkSync('loop.jsonl', join(project, 'loop.jsonl'));
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    const report = await index.refresh({ analyze: false });
    expect(report.unreadable).toBe(1);
    const bad = index.get(join(project, 'loop.jsonl'))[0];
    expect(bad?.stage).toBe('unreadable');
    expect(bad?.problemNote).toMatch(/ELOOP/);
    expect(index.list().filter((r) => r.stage === 'summarised')).toHaveLength(1);
    await index.close();
  });

  it('keeps the same session found in two roots apart, and a root reached twice once', async () => {
    tree = tempTree();
    const a = tree.root('a');
    const b = tree.root('b');
    copyScenario(a, '06-fork-session');
    copyScenario(b, '06-fork-session');
    symlinkSync(join(tree.dir, 'a'), join(tree.dir, 'c'));
    const index = openIndex({ agents: TEST_AGENTS,
      dbPath: join(tree.dir, 'index.db'),
      env: { CLAUDE_CONFIG_DIR: `${join(tree.dir, 'a')}, ${b}, ${join(tree.dir, 'c')}` },
      home: tree.dir,
      workers: 0,
    });
    // Codex's and Gemini CLI's default homes are under the (test's) home folder: their folders are roots too.
    expect(index.roots).toEqual([a, b, join(tree.dir, 'c', 'projects'), join(tree.dir, '.codex', 'sessions'), join(tree.dir, '.codex', 'archived_sessions'), join(tree.dir, '.gemini', 'tmp')]);
    await index.refresh({ analyze: false });
    const rows = index.list();
    expect(rows).toHaveLength(4);
    const id = rows[0]?.sessionId as string;
    const copies = index.get(id);
    expect(copies.map((r) => r.root).sort()).toEqual([a, b]);
    expect(figures(copies[0] as SessionRow)).toEqual(figures(copies[1] as SessionRow));
    await index.close();
  });

  it('indexes a transcript opened from anywhere with its real path', async () => {
    const { root, dbPath } = setup();
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    const src = join(CORPUS, 'public', 'd-kimuson__claude-code-viewer', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
    symlinkSync(src, join(tree.dir, 'dropped.jsonl'));
    const row = await index.indexFile(join(tree.dir, 'dropped.jsonl'), { analyze: false });
    expect(row.origin).toBe('opened');
    expect(row.path).toBe(src);
    expect(row.root).toBeNull();
    expect(row.title ?? row.firstPrompt).toBeTruthy();
    expect(index.list().map((r) => r.path)).toEqual([src]);
    // A full refresh keeps it (it is not under a root) while the file exists.
    const again = await index.refresh({ analyze: false });
    expect(again.opened).toEqual([]);
    expect(index.list()).toHaveLength(1);
    expect(existsSync(src)).toBe(true);
    await index.close();
  });
});

describe('worker threads', () => {
  it('carries on inline when a worker cannot start', async () => {
    const { root, dbPath } = setup();
    copyScenario(root, '01-superseded-reads');
    copyScenario(root, '05-autocompact');
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 2, workerUrl: new URL('file:///no/such/worker.mjs') });
    const report = await index.refresh({ analyze: false });
    expect(report.added).toBe(2);
    expect(report.notices.join('\n')).toMatch(/worker threads could not run .*main thread/);
    expect(index.list().every((r) => r.stage === 'summarised' && r.usage.apiMessages > 0)).toBe(true);
    await index.close();
  });
});
