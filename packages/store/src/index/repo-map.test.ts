import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeSession } from '@glassbox/analysis';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { windowFigures } from '@glassbox/core';
import { nodeAnalysisPorts, openIndex } from './index';
import { checkMappingFolder, readSavedMappings } from './repo-map';
import { CORPUS, copyScenario, tempTree, type TempTree } from '../test-corpus';
import { defaultAgents } from '@glassbox/agents';

/** The agents these tests fork and read with (the shells make the same registry). */
const TEST_AGENTS = defaultAgents();

let tree: TempTree;
afterEach(() => tree?.cleanup());

const CWD = '/tmp/cc-harness-work/03-large-outputs/project';
const AFTER = join(CORPUS, 'generated', '03-large-outputs', 'project-after');

describe('folder mappings in the index', () => {
  it('are saved, survive a restart, and re-analyse the sessions under them with the figures the window shows', async () => {
    tree = tempTree();
    const root = tree.root('a');
    const dbPath = join(tree.dir, 'data', 'index.db');
    copyScenario(root, '03-large-outputs');
    let index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    await index.refresh();
    const [unmapped] = index.list();
    // The recorded cwd is not on this machine: nothing is provably gone.
    expect(unmapped?.reclaimableTokens).toBe(0);
    expect(unmapped?.analysisRepo).toBeNull();

    index.saveMapping(CWD, AFTER);
    expect(index.get(unmapped?.path ?? '')[0]?.stage).toBe('summarised');
    const report = await index.refresh();
    expect(report.analysed).toBe(1);
    const [mapped] = index.list();
    expect(mapped?.analysisRepo).toBe(AFTER);

    // The same figures as the window's header for the same session and mapping.
    const { session, subagents } = loadSessionWithSubagents(mapped?.path ?? '');
    const header = windowFigures(analyzeSession(session, nodeAnalysisPorts(), { repoRoot: AFTER, subagents }));
    expect(header.reclaimableTokens).toBeGreaterThan(30_000);
    expect(mapped?.reclaimableTokens).toBe(header.reclaimableTokens);
    expect(mapped?.windowTokens).toBe(header.windowTokens);
    await index.close();

    expect(readSavedMappings(dbPath)).toEqual({ [CWD]: AFTER });
    index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0 });
    expect(index.mappings()).toEqual({ [CWD]: AFTER });
    expect(index.repoRootFor(`${CWD}/sub`)).toBe(`${AFTER}/sub`);
    expect(index.repoRootFor('/elsewhere')).toBeNull();
    index.saveMapping(CWD, null);
    await index.refresh();
    expect(index.list()[0]?.reclaimableTokens).toBe(0);
    expect(index.mappings()).toEqual({});
    await index.close();
  });

  it('a mapping for this run only applies without being saved', async () => {
    tree = tempTree();
    const root = tree.root('a');
    const dbPath = join(tree.dir, 'data', 'index.db');
    copyScenario(root, '03-large-outputs');
    const index = openIndex({ agents: TEST_AGENTS, dbPath, roots: [root], workers: 0, repoMap: { [CWD]: AFTER } });
    await index.refresh();
    expect(index.list()[0]?.analysisRepo).toBe(AFTER);
    await index.close();
    expect(readSavedMappings(dbPath)).toEqual({});
  });
});

describe('checkMappingFolder', () => {
  it('refuses a missing folder, a file and an unreadable folder with the reason', () => {
    tree = tempTree();
    expect(checkMappingFolder(join(tree.dir, 'nope'))).toEqual({ ok: false, reason: `${join(tree.dir, 'nope')} does not exist` });
    const file = join(tree.dir, 'f.txt');
    writeFileSync(file, 'x');
    expect(checkMappingFolder(file)).toEqual({ ok: false, reason: `${file} is a file, not a folder` });
    expect(checkMappingFolder(AFTER)).toEqual({ ok: true, folder: AFTER });
    const locked = join(tree.dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    const r = checkMappingFolder(locked);
    chmodSync(locked, 0o755);
    // Root reads any folder; everyone else is refused.
    expect(r.ok).toBe(process.getuid?.() === 0);
  });

  it('reads no mappings from a missing or foreign database', () => {
    tree = tempTree();
    expect(readSavedMappings(join(tree.dir, 'none.db'))).toEqual({});
    const junk = join(tree.dir, 'junk.db');
    writeFileSync(junk, 'not a database');
    expect(readSavedMappings(junk)).toEqual({});
  });
});
