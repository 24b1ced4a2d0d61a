// The list stage recognises a file from the first lines of its head when they decide (claim.ts): that
// must give what the whole head gives, on every transcript of the corpus, for every agent.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { readHead } from '@glassbox/file-io';
import { CORPUS } from '@glassbox/test-support/store/corpus';

const agents = defaultAgents();

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : /\.jsonl?$/.test(n) ? [p] : [];
  });
}
const files = walk(CORPUS);

describe("a file's first lines", () => {
  it('are a prefix of its head, decoded the same, at any size', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const path of files) {
      const lines = readHead(path).lines();
      for (const bytes of [1, 300, 1024, 4096, 8192, 16384, 65536, 1 << 20]) {
        const first = readHead(path).first(bytes);
        expect(lines.slice(0, first.length), `${path} within ${bytes} bytes`).toEqual(first);
      }
    }
  });

  it("say 'yes' only where the whole head says it too, for every agent", () => {
    let decided = 0;
    for (const path of files) {
      const lines = readHead(path).lines();
      for (const agent of agents.agents) {
        const whole = agent.format.recognise(lines).verdict;
        for (let k = 0; k <= lines.length; k++) {
          if (agent.format.recognise(lines.slice(0, k)).verdict !== 'yes') continue;
          decided++;
          expect(whole, `${agent.format.id} on ${path}'s first ${k} lines`).toBe('yes');
          break;
        }
      }
    }
    expect(decided).toBeGreaterThan(50);
  });
});
