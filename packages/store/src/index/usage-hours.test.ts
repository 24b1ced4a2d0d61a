import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { openIndex, type SessionRow, type UsageHour } from './index';
import { copyScenario, tempTree, type TempTree } from '../test-corpus';

let tree: TempTree;
afterEach(() => tree?.cleanup());

/** The bytes up to the line boundary nearest `share` of the file, and the rest. */
function splitAt(buf: Buffer, share: number): [Buffer, Buffer] {
  const at = buf.indexOf(10, Math.floor(buf.length * share)) + 1;
  return [buf.subarray(0, at), buf.subarray(at)];
}

const key = (h: UsageHour) => `${h.hour} ${h.model}`;
const sorted = (hs: UsageHour[]) => hs.map((h) => ({ ...h, cost: Math.round(h.cost * 1e9) })).sort((a, b) => key(a).localeCompare(key(b)));

it('hourly usage adds up to the row, and an appended file ends with the buckets of a full read (replies straddling a pass counted once)', async () => {
  tree = tempTree();
  const root = tree.root('a');
  const project = copyScenario(root, '05-autocompact');
  const name = readdirSync(project).find((n) => n.endsWith('.jsonl')) as string;
  const path = join(project, name);
  const whole = readFileSync(path);
  const agents = defaultAgents();

  const index = openIndex({ agents, dbPath: join(tree.dir, 'a.db'), roots: [root], workers: 0 });
  // Cut at many places: some cuts fall between the records of one streamed reply.
  const cuts = [0.15, 0.3, 0.45, 0.6, 0.75, 0.9];
  let written = 0;
  writeFileSync(path, '');
  for (const share of [...cuts, 1]) {
    const end = share === 1 ? whole.length : splitAt(whole, share)[0].length;
    if (end > written) appendFileSync(path, whole.subarray(written, end));
    written = Math.max(written, end);
    await index.refresh({ analyze: false });
  }
  const row = index.get(path)[0] as SessionRow;
  const hours = index.usageHours().filter((h) => h.sessionPath === path);
  expect(hours.length).toBeGreaterThan(0);
  expect(hours.reduce((a, h) => a + h.messages, 0)).toBe(row.usage.apiMessages);
  expect(hours.reduce((a, h) => a + h.cacheRead, 0)).toBe(row.usage.cacheRead);
  expect(hours.reduce((a, h) => a + h.output, 0)).toBe(row.usage.output);
  expect(hours.reduce((a, h) => a + h.cost, 0)).toBeCloseTo(row.costUsd ?? NaN, 9);
  expect(hours.every((h) => /^\d{4}-\d\d-\d\dT\d\d$/.test(h.hour) && h.model !== '<synthetic>')).toBe(true);

  const fresh = openIndex({ agents, dbPath: join(tree.dir, 'fresh.db'), roots: [root], workers: 0 });
  await fresh.refresh({ analyze: false });
  expect(sorted(hours)).toEqual(sorted(fresh.usageHours().filter((h) => h.sessionPath === path)));

  // A file rewritten from the start keeps no buckets of its old content.
  writeFileSync(path, splitAt(whole, 0.3)[0]);
  await index.refresh({ analyze: false });
  const shorter = index.usageHours().filter((h) => h.sessionPath === path);
  expect(shorter.reduce((a, h) => a + h.messages, 0)).toBe((index.get(path)[0] as SessionRow).usage.apiMessages);
  await fresh.close();
  await index.close();
});
