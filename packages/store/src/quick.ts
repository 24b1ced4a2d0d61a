import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { SummaryAccumulator, emptyState, type SummaryState } from './summary';
import { fingerprintOf, type Fingerprint } from './scan';

const HEAD_STEP = 64 * 1024;
const HEAD_MAX = 1024 * 1024;
const TAIL_STEP = 64 * 1024;
const TAIL_MAX = 2 * 1024 * 1024;

export interface QuickLook {
  state: SummaryState;
  fingerprint: Fingerprint;
  bytesRead: number;
}

/**
 * What the session list needs, without reading the whole file: the opening records (identity, first
 * prompt) and the last records (last activity, the last reported context size, the latest title).
 * Reads grow from 64 KB until they hold what is needed or reach their cap. Counters that need every
 * line (turns, usage totals) are left to the full pass, which replaces this state.
 */
export function quickLook(path: string, subagentFile: boolean): QuickLook {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    const size = st.size;
    const state = emptyState(subagentFile);
    let bytesRead = 0;
    // Head: complete lines from the start, until a prompt has been seen.
    let headLen = Math.min(HEAD_STEP, size);
    let headEnd = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(headLen);
      const n = readSync(fd, buf, 0, headLen, 0);
      bytesRead += n;
      const head = new SummaryAccumulator(emptyState(subagentFile));
      const lastNl = buf.lastIndexOf(10, n - 1);
      const text = lastNl >= 0 ? buf.toString('utf8', 0, lastNl) : '';
      headEnd = lastNl + 1;
      let line = 0;
      for (const l of text.split('\n')) head.line(l, ++line);
      Object.assign(state, head.finish().state);
      if (state.firstPrompt !== null || headLen >= Math.min(size, HEAD_MAX)) break;
      headLen = Math.min(headLen * 4, size, HEAD_MAX);
    }
    // Tail: complete lines at the end (the first, possibly cut, line of the window is dropped).
    let tailLen = Math.min(TAIL_STEP, size - headEnd);
    while (tailLen > 0) {
      const start = size - tailLen;
      const buf = Buffer.allocUnsafe(tailLen);
      const n = readSync(fd, buf, 0, tailLen, start);
      bytesRead += n;
      const firstNl = start === headEnd ? -1 : buf.indexOf(10);
      const lastNl = buf.lastIndexOf(10, n - 1);
      if (lastNl > firstNl) {
        const tail = new SummaryAccumulator(emptyState(subagentFile));
        let line = 0;
        for (const l of buf.toString('utf8', firstNl + 1, lastNl).split('\n')) tail.line(l, ++line);
        const t = tail.finish().state;
        if (t.contextTokens !== null || tailLen >= Math.min(size - headEnd, TAIL_MAX)) {
          mergeTail(state, t);
          break;
        }
      } else if (tailLen >= Math.min(size - headEnd, TAIL_MAX)) break;
      tailLen = Math.min(tailLen * 4, size - headEnd, TAIL_MAX);
    }
    state.records = 0;
    state.turns = 0;
    state.invalidLines = 0;
    state.firstInvalidLine = null;
    return { state, fingerprint: fingerprintOf(st), bytesRead };
  } finally {
    closeSync(fd);
  }
}

function mergeTail(state: SummaryState, tail: SummaryState): void {
  if (tail.lastTs && (state.lastTs === null || tail.lastTs > state.lastTs)) state.lastTs = tail.lastTs;
  if (tail.contextTokens !== null) {
    state.contextTokens = tail.contextTokens;
    state.lastModel = tail.lastModel;
  }
  state.aiTitle = tail.aiTitle ?? state.aiTitle;
  state.customTitle = tail.customTitle ?? state.customTitle;
  state.summaryTitle = tail.summaryTitle ?? state.summaryTitle;
  state.version = tail.version ?? state.version;
  state.gitBranch = tail.gitBranch ?? state.gitBranch;
  state.sessionId ??= tail.sessionId;
  state.cwd ??= tail.cwd;
}
