import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElisionPreview, ForkPayload, ForkPreview, ForkWritten, SegmentDetail, SnapshotView } from '@glassbox/contract';
import type { EngineHost } from './host';
import { seededHost } from '@glassbox/test-support/host/seeded-host';
import { defaultAgents } from '@glassbox/agents';
import { hostGlassbox } from './glassbox';
import { detailOf } from './segment-detail';
import { fileBytes } from './source-bytes';
import { okValue, seedConfigDir, type Seeded } from '@glassbox/test-support/host/seed';

let seeded: Seeded | null = null;
let host: EngineHost | null = null;
afterEach(() => {
  host?.close();
  host = null;
  seeded?.cleanup();
  seeded = null;
});

const ELIDE = { overTokens: 500, keepChars: 600, keepLines: 10 };

describe('elision in the window', () => {
  it('previews three real elisions, writes them when chosen, and the fork shows each as elided with its middle from the archive', async () => {
    seeded = seedConfigDir(['03-large-outputs']);
    host = seededHost(seeded, { repoMap: seeded.repoMap, watch: false });
    await host.start();
    const path = seeded.sessions['03-large-outputs'] as string;

    const preview = await okValue<ElisionPreview>(host.handle('fork:elision-preview', { path, elide: ELIDE, protectTail: 0 }));
    expect(preview.elide).toEqual(ELIDE);
    expect(preview.samples).toHaveLength(3);
    const text = readFileSync(path, 'utf8');
    for (const s of preview.samples) {
      expect(s.head.length).toBeLessThanOrEqual(ELIDE.keepChars);
      expect(text).toContain(JSON.stringify(s.head).slice(1, -1));
      expect(text).toContain(JSON.stringify(s.tail).slice(1, -1));
      expect(s.marker).toContain(`elided by glassbox — recall ${s.sha256Prefix}`);
    }
    // The defaults when none are given: the measured ones.
    const byDefault = await okValue<ElisionPreview>(host.handle('fork:elision-preview', { path }));
    expect(byDefault.elide).toEqual({ overTokens: 4000, keepChars: 2000, keepLines: 40 });

    // Without `elided` among the classes, the thresholds change nothing; with it, the fork elides.
    const without = await okValue<ForkPreview>(host.handle('fork:preview', { path, classes: ['duplicate'], protectTail: 0, elide: ELIDE }));
    expect(without.largest.some((a) => a.class === 'elided')).toBe(false);
    const chosen = await okValue<ForkPreview>(host.handle('fork:preview', { path, classes: ['elided'], protectTail: 0, elide: ELIDE }));
    expect(chosen.actions).toBe(preview.results);
    expect(chosen.checks.find((c) => c.id === 'elisions')?.ok).toBe(true);
    const written = await okValue<ForkWritten>(host.handle('fork:write', { path, classes: ['elided'], protectTail: 0, elide: ELIDE }));

    // The fork's window: each elision a tombstone marked elided (drawn in the elided colour), with its parts.
    const fork = await okValue<SnapshotView>(host.handle('session:snapshot', { path: written.path }));
    const elided = fork.snapshot.segments.filter((s) => s.proof?.class === 'tombstone' && s.proof.elided === true);
    expect(elided).toHaveLength(preview.results);
    const largest = preview.samples[0];
    const seg = elided.find((s) => s.proof?.class === 'tombstone' && s.proof.sha256Prefix === largest?.sha256Prefix);
    if (!seg || !largest) throw new Error('the largest elision is not in the fork');
    const detail = await okValue<SegmentDetail>(host.handle('segment:detail', { path: written.path, segmentId: seg.id }));
    expect(detail.elision).toEqual({ head: largest.head, marker: largest.marker, tail: largest.tail, sha256Prefix: largest.sha256Prefix, middleLines: largest.middleLines, middleChars: largest.middleChars, inFork: true });
    expect(detail.explanation).toMatch(/^Elided by the fork/);

    // "Show the middle": the archived middle, hash-checked, and head + middle + tail is the original result.
    const middle = await okValue<ForkPayload>(host.handle('fork:payload', { path: written.path, segmentId: seg.id }));
    expect(middle.kind).toBe('elided-middle');
    expect(createHash('sha256').update(middle.text, 'utf8').digest('hex')).toBe(middle.sha256);
    expect(middle.sha256.startsWith(largest.sha256Prefix)).toBe(true);
    expect(text).toContain(JSON.stringify(largest.head + middle.text + largest.tail).slice(1, -1));
    expect(detail.elision?.middleLines).toBe(middle.text.split('\n').length - (middle.text.endsWith('\n') ? 1 : 0));
  });

  it('refuses thresholds out of range before any work, naming the field', async () => {
    seeded = seedConfigDir(['03-large-outputs']);
    host = seededHost(seeded, { repoMap: seeded.repoMap, watch: false });
    await host.start();
    const path = seeded.sessions['03-large-outputs'] as string;
    const bad = await host.handle('fork:elision-preview', { path, elide: { overTokens: -1, keepChars: 10, keepLines: 1 } });
    expect(bad.ok === false && bad.error).toMatchObject({ code: 'bad_args', message: expect.stringContaining('elide.overTokens') });
    const extra = await host.handle('fork:write', { path, classes: ['elided'], elide: { overTokens: 500, keepChars: 10, keepLines: 1, more: 1 } });
    expect(extra.ok === false && extra.error.message).toMatch(/unexpected argument "more"/);
  });

  it('shows a result the original would elide cut as the fork would cut it, its middle still in the session', () => {
    seeded = seedConfigDir(['03-large-outputs']);
    const path = seeded.sessions['03-large-outputs'] as string;
    const glassbox = hostGlassbox(defaultAgents(), seeded.dataDir);
    const opened = glassbox.sessions.open(path);
    const snapshot = glassbox.sessions.analyze(opened.loaded, { repoRoot: Object.values(seeded.repoMap)[0] ?? null, protectTail: 0, elide: { overTokens: 500, keep: { chars: 600, lines: 10 } } });
    const seg = snapshot.segments.find((s) => s.class === 'elided');
    if (!seg) throw new Error('nothing elided at 500 tokens');
    const detail = detailOf(opened.loaded.session, snapshot, seg, fileBytes(path));
    const e = detail.elision;
    if (!e) throw new Error('no elision parts');
    expect(e.inFork).toBe(false);
    expect(detail.content.startsWith(e.head)).toBe(true);
    expect(detail.content.endsWith(e.tail)).toBe(true);
    const middle = detail.content.slice(e.head.length, detail.content.length - e.tail.length);
    expect(createHash('sha256').update(middle, 'utf8').digest('hex').startsWith(e.sha256Prefix)).toBe(true);
    expect(e.marker).toBe(`[… ${e.middleLines.toLocaleString('en-US')} lines (${e.middleChars} chars) elided by glassbox — recall ${e.sha256Prefix} …]`);
  });
});
