import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '@glassbox/analysis';
import { defaultAgents } from '@glassbox/agents';
import type { ClassifiedSnapshot } from '@glassbox/core';
import { MOONMIND_057, linesOf } from '@glassbox/test-support/codex/corpus';
import { fixturePorts } from '@glassbox/test-support/ports';
import { SnapshotJson } from './snapshot-json';

const ports = fixturePorts('2026-12-01');
const codex = defaultAgents().byId('codex').locator;
const plain = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

/** The window of a real rollout as the file is now. */
function windowOf(path: string): ClassifiedSnapshot {
  const loaded = codex.load(path);
  return analyzeSession(loaded.session, ports, { repoRoot: null, withInferred: true });
}

describe('a live window as JSON', () => {
  // The bytes must be JSON.stringify's exactly (the window parses them; the HTTP server splices them):
  // every window of a long real rollout as it grows, a run of 4 points so most runs are reused.
  it('is JSON.stringify of the window after every append, runs reused or not', () => {
    const lines = linesOf(MOONMIND_057);
    const copy = join(mkdtempSync(join(tmpdir(), 'snapshot-json-')), basename(MOONMIND_057));
    writeFileSync(copy, `${lines[0]}\n`);
    const json = new SnapshotJson(4);
    let compared = 0;
    for (let i = 1; i < lines.length; i += 9) {
      appendFileSync(copy, lines.slice(i, i + 9).join('\n') + '\n');
      const snap = windowOf(copy);
      expect(Buffer.from(json.encode(snap)).equals(Buffer.from(plain(snap))), `after line ${i + 9}`).toBe(true);
      compared += snap.turns.length;
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('writes again a run whose points changed, and a shorter or empty series', () => {
    const snap = windowOf(MOONMIND_057);
    const json = new SnapshotJson(4);
    json.encode(snap);
    // The same window with one point's usage told differently (a copy: nothing is changed in place).
    const changed = structuredClone(snap);
    const point = changed.turns[5];
    if (!point) throw new Error('the rollout has responses');
    point.usage.inputTokens += 1;
    expect(new TextDecoder().decode(json.encode(changed))).toBe(JSON.stringify(changed));
    const shorter = { ...snap, turns: snap.turns.slice(0, 7) };
    expect(new TextDecoder().decode(json.encode(shorter))).toBe(JSON.stringify(shorter));
    const none = { ...snap, turns: [] };
    expect(new TextDecoder().decode(json.encode(none))).toBe(JSON.stringify(none));
    expect(new TextDecoder().decode(json.encode(snap))).toBe(JSON.stringify(snap));
  });
});
