import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { AgentFormat, SummaryState } from '@glassbox/core';
import { fingerprintOf, type Fingerprint } from './scan';

// Small on purpose: the list must be ready long before a full pass could be. What these windows miss
// (a first prompt after 64 KB of attachments) the full pass fills in moments later.
const HEAD_STEP = 16 * 1024;
const HEAD_MAX = 64 * 1024;
const TAIL_STEP = 16 * 1024;
const TAIL_MAX = 256 * 1024;

export interface QuickLook {
  state: SummaryState;
  fingerprint: Fingerprint;
  bytesRead: number;
}

/**
 * What the session list needs, without reading the whole file: the opening records (identity, first
 * prompt), read forward until the first prompt, and the closing records (last activity, the last
 * reported context size, the latest title), read backward until the last reported usage. Windows
 * grow from 16 KB (the head to 64 KB, the tail to 256 KB). The agent's adapter reads the records;
 * counters that need every line (turns, usage totals) are left to the full pass, which replaces this.
 */
export function quickLook(path: string, subagentFile: boolean, format: AgentFormat): QuickLook {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    const size = st.size;
    let bytesRead = 0;
    let state: SummaryState = format.createSummarizer(null, subagentFile).finish().state;
    let headEnd = 0;
    for (let len = Math.min(HEAD_STEP, size); ; len = Math.min(len * 4, size, HEAD_MAX)) {
      const buf = Buffer.allocUnsafe(len);
      const n = readSync(fd, buf, 0, len, 0);
      bytesRead += n;
      const lastNl = buf.lastIndexOf(10, n - 1);
      const head = format.createSummarizer(null, subagentFile);
      let line = 0;
      // Where the head stopped reading: the tail covers everything after it.
      headEnd = 0;
      for (const l of lastNl > 0 ? buf.toString('utf8', 0, lastNl).split('\n') : []) {
        head.line(l, ++line);
        headEnd += Buffer.byteLength(l, 'utf8') + 1;
        if (head.state.firstPrompt !== null) break;
      }
      state = head.finish().state;
      if (state.firstPrompt !== null || len >= Math.min(size, HEAD_MAX)) break;
    }
    for (let len = Math.min(TAIL_STEP, size - headEnd); len > 0; len = Math.min(len * 4, size - headEnd, TAIL_MAX)) {
      const start = size - len;
      const buf = Buffer.allocUnsafe(len);
      const n = readSync(fd, buf, 0, len, start);
      bytesRead += n;
      // The first line of the window may be cut, unless the window starts right after the head.
      const from = start === headEnd ? 0 : buf.indexOf(10) + 1;
      const lastNl = buf.lastIndexOf(10, n - 1);
      const done = lastNl > from && format.readTail(buf.toString('utf8', from, lastNl).split('\n'), state);
      if (done || len >= Math.min(size - headEnd, TAIL_MAX)) break;
    }
    return { state, fingerprint: fingerprintOf(st), bytesRead };
  } finally {
    closeSync(fd);
  }
}
