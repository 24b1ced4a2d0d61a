// One very long line (a 300 MB tool output on one line) must cost what its bytes cost: the line readers
// join its pieces once when it ends. Re-joining the carried start at every chunk copied it once per
// megabyte read (300 MB: 39 s against 2.3 s for 300 MB of ordinary lines). Counted here as the bytes
// Buffer.concat copies, on a real session whose tool output is grown to 12 MB in a temporary file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scanLines } from '@glassbox/file-io';
import { readCompleteLines } from '../shared/scan';
import { CORPUS } from '../test-corpus';

const LONG = 12 * 1024 * 1024;

function sessionWithLongLine(dir: string): { path: string; longest: number; lines: number } {
  const source = join(CORPUS, 'generated/03-large-outputs/transcript.jsonl');
  const lines = readFileSync(source, 'utf8').trimEnd().split('\n');
  const i = lines.findIndex((l) => l.includes('"tool_result"') && l.includes('"content":"'));
  const record = JSON.parse(lines[i] as string) as { message: { content: { content: unknown }[] } };
  const block = record.message.content.find((b) => typeof b.content === 'string') as { content: string };
  block.content += 'x'.repeat(LONG);
  lines[i] = JSON.stringify(record);
  const path = join(dir, 'long.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, longest: Buffer.byteLength(lines[i] as string), lines: lines.length };
}

let dir = '';
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Bytes Buffer.concat copies while `run` runs. */
function copiedBy(run: () => void): number {
  let copied = 0;
  const concat = Buffer.concat.bind(Buffer);
  vi.spyOn(Buffer, 'concat').mockImplementation((list: readonly Uint8Array[], total?: number) => {
    const out = concat(list, total);
    copied += out.length;
    return out;
  });
  run();
  return copied;
}

describe('a line of 12 MB', () => {
  it('is joined once by the index reader (readCompleteLines), and read whole', () => {
    dir = mkdtempSync(join(tmpdir(), 'glassbox-long-'));
    const s = sessionWithLongLine(dir);
    let longest = 0;
    let count = 0;
    const copied = copiedBy(() => {
      readCompleteLines(s.path, 0, 0, (text) => {
        count++;
        longest = Math.max(longest, Buffer.byteLength(text));
      });
    });
    expect(count).toBe(s.lines);
    expect(longest).toBe(s.longest);
    expect(copied).toBeLessThan(2 * s.longest);
  });

  it('is joined once by the shared line scanner (scanLines)', () => {
    dir = mkdtempSync(join(tmpdir(), 'glassbox-long-'));
    const s = sessionWithLongLine(dir);
    let longest = 0;
    const copied = copiedBy(() => {
      scanLines(s.path, (_text, _line, _offset, length) => {
        longest = Math.max(longest, length);
      });
    });
    expect(longest).toBe(s.longest);
    expect(copied).toBeLessThan(2 * s.longest);
  });
});
