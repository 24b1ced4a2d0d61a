import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatLines } from './parse-lines';
import { geminiCompactionSummary } from './snapshot-text';
import { fixture, linesOf, mainChat } from '@glassbox/test-support/gemini/corpus';

describe('the summary of a kept compression (0.61)', () => {
  it('is the `<state_snapshot>` message of the full replace the compaction points at', () => {
    const path = mainChat(fixture('03-compression', '0.61'));
    const s = parseChatLines(linesOf(path), { path });
    const summary = s.compactions?.[0]?.summary;
    expect(summary).toBeTruthy();
    const bytes = readFileSync(path);
    const line = bytes.toString('utf8', summary?.offset ?? 0, (summary?.offset ?? 0) + (summary?.length ?? 0));
    const text = geminiCompactionSummary(line);
    expect(text?.startsWith('<state_snapshot>')).toBe(true);
    expect(Buffer.byteLength(text ?? '')).toBeLessThanOrEqual(summary?.bytes ?? 0);
  });

  it('is nothing on a line without a snapshot', () => {
    const path = mainChat(fixture('03-compression', '0.61'));
    expect(geminiCompactionSummary(linesOf(path)[0] as string)).toBeNull();
  });
});
