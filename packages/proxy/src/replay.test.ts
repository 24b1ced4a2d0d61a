import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRequest } from '@glassbox/request-anthropic';
import { RECORDED_RUNS, recordedRun, type RecordedRun } from '@glassbox/test-support/request-anthropic/recorded';
import { proxyStatus, showRemoved } from './status';
import { replayAll, startReplay, type Replay } from '@glassbox/test-support/proxy/replay';

const TOMB = '[glassbox: removed ';

/** The tool_use ids whose result (or input) a request carries as a tombstone. */
function tombstoned(body: Buffer): Set<string> {
  const read = readRequest(body);
  if (!read.ok) throw new Error(read.reason);
  const out = new Set<string>();
  for (const m of read.request.messages) {
    for (const b of m.blocks) {
      if (b.type === 'tool_result' && typeof b.value['content'] === 'string' && b.value['content'].startsWith(TOMB)) out.add(String(b.value['tool_use_id']));
      const input = b.value['input'];
      if (b.type === 'tool_use' && input && typeof input === 'object' && Object.values(input).some((v) => typeof v === 'string' && v.startsWith(TOMB))) out.add(String(b.value['id']));
    }
  }
  return out;
}

/** Idle gaps of the recorded run: requests that came longer than `ms` after the one before. */
function afterGaps(run: RecordedRun, ms: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < run.exchanges.length; i++) {
    if (Date.parse(run.exchanges[i]?.time ?? '') - Date.parse(run.exchanges[i - 1]?.time ?? '') > ms) out.push(i);
  }
  return out;
}

let replay: Replay | null = null;
afterEach(async () => {
  await replay?.close();
  replay = null;
});

describe.each(RECORDED_RUNS)('a real session replayed through the proxy (%s)', (name) => {
  const run = recordedRun(name);

  it('adds tombstones only when the cache has expired or a warm break pays, and repeats them byte for byte', async () => {
    replay = await startReplay(run);
    const { sent, replies } = await replayAll(replay, run);
    const gaps = afterGaps(run, 4000);
    expect(gaps.length).toBe(2);
    let before = new Set<string>();
    const newAt: number[] = [];
    for (const [i, body] of sent.entries()) {
      const now = tombstoned(body);
      for (const id of before) expect(now.has(id), `request ${i + 1} dropped a tombstone`).toBe(true);
      if ([...now].some((id) => !before.has(id))) newAt.push(i);
      before = now;
      expect(replies[i]?.status).toBe(200);
      // The client gets the reply exactly as the upstream sent it.
      expect(replies[i]?.body.equals(run.exchanges[i]?.reply ?? Buffer.alloc(0))).toBe(true);
    }
    const removals = replay.archive.removals(replay.archive.conversations()[0] ?? '');
    const horizon = removals.filter((r) => r.moment === 'horizon').map((r) => r.request - 1);
    for (const i of newAt) expect(gaps.includes(i) || horizon.includes(i), `new tombstones at request ${i + 1}`).toBe(true);
    // At most one warm break per idle gap.
    const breaks = new Set(horizon);
    expect(breaks.size).toBeLessThanOrEqual(gaps.length + 1);
    expect(new Set(removals.map((r) => `${r.class} ${r.source}`))).toEqual(
      new Set(['stale-superseded src/inventory.py', 'duplicate head -80 data/catalog.txt', 'gone docs/DESIGN.md', 'stale-drift src/settings.py', 'stale-superseded data/catalog.txt']),
    );
  });

  it('sends what the client sent where nothing is removed, and its payloads back from the archive where something is', async () => {
    replay = await startReplay(run);
    const { sent } = await replayAll(replay, run);
    const r = replay;
    const conversation = r.archive.conversations()[0] ?? '';
    for (const [i, body] of sent.entries()) {
      const original = run.exchanges[i]?.body ?? Buffer.alloc(0);
      let text = body.toString('utf8');
      for (const rec of r.archive.removals(conversation)) {
        const t = JSON.stringify(rec.tombstone);
        const at = text.indexOf(t);
        if (at >= 0) text = text.slice(0, at) + r.archive.payload(rec.sha256).toString('utf8') + text.slice(at + t.length);
      }
      expect(Buffer.from(text, 'utf8').equals(original), `request ${i + 1}`).toBe(true);
    }
    const [status] = proxyStatus(r.archive);
    expect(status?.requests).toBe(run.exchanges.length);
    expect(status?.savedTokens).toBeGreaterThan(10_000);
    const one = status?.removals[0];
    if (!one) throw new Error('no removal');
    const shown = showRemoved(r.archive, one.sha256.slice(0, 12));
    expect(shown).toHaveLength(1);
    expect(shown[0]?.text.length).toBeGreaterThan(500);
  });

  it('takes the cache lifetime from the usage: with 5-minute writes, a gap of 6 minutes is an expiry and 4 minutes is not', async () => {
    const gaps = afterGaps(run, 4000);
    const at = (minutes: number) => (_ex: unknown, i: number) => Date.parse(run.exchanges[0]?.time ?? '') + i * 1000 + gaps.filter((g) => g <= i).length * minutes * 60_000;
    replay = await startReplay(run, { cacheTtlMs: null, horizon: 1 });
    const cold = await replayAll(replay, run, at(6));
    expect(tombstoned(cold.sent[gaps[0] as number] ?? Buffer.alloc(0)).size).toBe(4);
    await replay.close();
    replay = await startReplay(run, { cacheTtlMs: null, horizon: 1 });
    const warm = await replayAll(replay, run, at(4));
    for (const body of warm.sent) expect(tombstoned(body).size).toBe(0);
  });

  it('carries on where it stopped after a restart: the same tombstones, and the cache clock from its records', async () => {
    const gaps = afterGaps(run, 4000);
    const second = gaps[1] as number;
    const whole = await startReplay(run);
    const expected = await replayAll(whole, run);
    await whole.close();
    // Stop just before the second idle gap, start a new proxy on the same archive, and go on.
    const shared = mkdtempSync(join(tmpdir(), 'glassbox-restart-'));
    try {
      const first = await startReplay({ ...run, exchanges: run.exchanges.slice(0, second) }, {}, { archiveRoot: shared });
      const a = await replayAll(first, { ...run, exchanges: run.exchanges.slice(0, second) });
      await first.close();
      replay = await startReplay({ ...run, exchanges: run.exchanges.slice(second) }, {}, { archiveRoot: shared });
      const b = await replayAll(replay, { ...run, exchanges: run.exchanges.slice(second) });
      const sent = [...a.sent, ...b.sent];
      for (const [i, body] of sent.entries()) expect(body.equals(expected.sent[i] ?? Buffer.alloc(0)), `request ${i + 1}`).toBe(true);
      expect(tombstoned(b.sent[0] ?? Buffer.alloc(0)).size).toBe(5);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it('applies every proven removal at once with --evict-now', async () => {
    replay = await startReplay(run, { evictNow: true, cacheTtlMs: 60 * 60_000 });
    const { sent } = await replayAll(replay, run);
    const first = sent.findIndex((b) => tombstoned(b).size > 0);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(afterGaps(run, 4000)[0] as number);
    expect(tombstoned(sent[sent.length - 1] ?? Buffer.alloc(0)).size).toBe(5);
  });
});
