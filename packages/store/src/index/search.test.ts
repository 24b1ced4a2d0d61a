import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { openIndex, type SessionRow } from './index';
import { copyScenario, tempTree, type TempTree } from '@glassbox/test-support/store/corpus';
import { indexableText, snippetParts } from './search-query';

let tree: TempTree;
afterEach(() => tree?.cleanup());

async function indexed(scenarios: string[]) {
  tree = tempTree();
  const root = tree.root('a');
  for (const s of scenarios) copyScenario(root, s);
  const index = openIndex({ agents: defaultAgents(), dbPath: join(tree.dir, 'data', 'index.db'), roots: [root], workers: 1 });
  await index.refresh();
  return index;
}

const hits = (r: SessionRow | undefined) => (r?.snippet ?? []).filter((_, i) => i % 2 === 1);
const project = (r: SessionRow) => r.project;

describe('full-text search', () => {
  it('finds words of a reply and of a tool result, each session with a snippet around its hit', async () => {
    const index = await indexed(['01-superseded-reads', '02-gone-drift-errors', '19-newest-client-window']);
    // Said only by the model, in a reply.
    const reply = index.list({ search: 'confirming gone' });
    expect(reply.map(project)).toEqual([expect.stringContaining('02-gone-drift-errors')]);
    expect(hits(reply[0]).map((h) => h.toLowerCase())).toEqual(expect.arrayContaining(['confirming', 'gone']));
    expect(reply[0]?.snippet?.join('')).toContain('Confirming it is gone');
    // In a file the session read: its text reached the model as a tool result.
    const result = index.list({ search: 'scratch notes' });
    expect(result.map(project)).toEqual(expect.arrayContaining([expect.stringContaining('02-gone-drift-errors')]));
    expect(hits(result.find((r) => r.project.includes('02-gone')))).toContain('Scratch');
    // The brief list the window reads carries the same snippet.
    expect(index.brief({ search: 'confirming gone' })[0]?.snippet).toEqual(reply[0]?.snippet);
    await index.close();
  });

  it('reads hostile queries as words, never as FTS5 syntax', async () => {
    const index = await indexed(['02-gone-drift-errors']);
    for (const q of ['"', '""', 'NEAR(a b)', 'gone OR x', 'text:gone', '*', 'gone*', '-gone', '^gone', '(gone', 'a AND NOT b', "'; DROP TABLE files; --", '{text}: gone']) {
      expect(() => index.list({ search: q }), q).not.toThrow();
    }
    // "OR" is a word to find, not an operator: no session says "gone OR x" word for word with an "x".
    expect(index.list({ search: 'gone OR zzqx' })).toEqual([]);
    // "NOT" is a word too (this session says "not"), never the operator that would drop "gone".
    expect(index.list({ search: 'NOT gone' }).length).toBe(1);
    expect(index.list({ search: 'gone NOT zzqx' })).toEqual([]);
    expect(index.list({ search: 'gone' }).length).toBe(1);
    await index.close();
  });
});

describe('snippet parts', () => {
  it('alternate text and hits, on one line', () => {
    expect(snippetParts('a \u0002hit\u0003 b\nc')).toEqual(['a ', 'hit', ' b c']);
    expect(snippetParts('\u0002x\u0003')).toEqual(['', 'x', '']);
    // A transcript holding the markers cannot fake a hit: they are gone before it is indexed.
    expect(snippetParts(indexableText('fake \u0002hit\u0003 here'))).toEqual(['fake hit here']);
  });
});
