import { basename } from 'node:path';
import type { AgentFormat, CompactionEvent, CompactionHistory, CompactionItem, LoadedSession, Session } from '@glassbox/core';
import { compactionHistory, type AnalysisPorts, type HistoryOptions, type TranscriptPort } from '@glassbox/analysis';
import { nodeAnalysisPorts } from './repo-port';
import { readSlice, scanLines } from '@glassbox/file-io';

/** Where a transcript's lines come from: a file read in place, or bytes held in memory (a dropped file). */
export interface LineSource {
  /** Feeds lines 1…lastLine to the sink, in order, with their byte offsets. */
  scan(lastLine: number, sink: (text: string, line: number, offset: number, length: number) => void): void;
  /** One line, by byte offset and length. */
  line(offset: number, length: number): string;
}

export function fileLineSource(path: string): LineSource {
  return {
    scan: (lastLine, sink) => void scanLines(path, sink, 0, 0, lastLine),
    line: (offset, length) => readSlice(path, offset, length),
  };
}

export function memoryLineSource(buf: Buffer): LineSource {
  return {
    scan(lastLine, sink) {
      let start = 0;
      let line = 0;
      while (start < buf.length && line < lastLine) {
        let nl = buf.indexOf(10, start);
        if (nl < 0) nl = buf.length;
        line++;
        const text = buf.toString('utf8', start, nl);
        sink(text.endsWith('\r') ? text.slice(0, -1) : text, line, start, nl - start);
        start = nl + 1;
      }
    },
    line: (offset, length) => buf.toString('utf8', offset, offset + length),
  };
}

/**
 * The transcript port of the compaction x-ray: the file as it was before a line (one bounded parse
 * with the agent's own parser), and text read back from record lines through the agent's format.
 */
function transcriptPort(path: string, format: AgentFormat, source: LineSource = fileLineSource(path)): TranscriptPort {
  const newParser = () => format.createParser({ path, fallbackId: basename(path).replace(/\.jsonl$/i, ''), keepCapturedText: true });
  return {
    sessionBefore(line: number): Session {
      const parser = newParser();
      source.scan(line - 1, (text, n, offset, length) => parser.push(text, n, offset, length));
      return parser.finish(true);
    },
    sessionsBefore(lines, visit) {
      const parser = newParser();
      // Without snapshots a parser can only give each session by a parse of its own, from the start.
      if (!parser.snapshot) {
        for (const line of lines) visit(line, this.sessionBefore(line));
        return;
      }
      const take = parser.snapshot.bind(parser);
      const wanted = [...new Set(lines)].sort((a, b) => a - b);
      let next = 0;
      const last = wanted[wanted.length - 1] ?? 0;
      // One pass: the session before each wanted line is taken as that line is reached.
      source.scan(last - 1, (text, n, offset, length) => {
        while (next < wanted.length && (wanted[next] as number) <= n) visit(wanted[next++] as number, take());
        parser.push(text, n, offset, length);
      });
      while (next < wanted.length) visit(wanted[next++] as number, take());
    },
    blockText(offset, length, blockIndex, cwd, uuid) {
      if (!format.blockText || length <= 0) return null;
      return format.blockText(source.line(offset, length), blockIndex, cwd, uuid);
    },
    summaryText(event: CompactionEvent) {
      if (!format.compactionSummary || !event.summary) return null;
      return format.compactionSummary(source.line(event.summary.offset, event.summary.length));
    },
  };
}

/**
 * The compactions of a session and of each of its subagents' own files (each x-rayed on its own
 * thread). Subagent files without a compaction are left out. `ports` default to this machine's disk.
 */
export function compactionHistories(
  format: AgentFormat,
  loaded: LoadedSession,
  options: HistoryOptions & { ports?: AnalysisPorts },
  source: LineSource = fileLineSource(loaded.session.path),
): CompactionHistory[] {
  const { ports = nodeAnalysisPorts(), ...rest } = options;
  const main = compactionHistory(loaded.session, transcriptPort(loaded.session.path, format, source), ports, { ...rest, agentId: null });
  const subs = loaded.subagents
    .filter((sub) => (sub.compactions ?? []).length > 0)
    .map((sub) => {
      const ref = loaded.session.subagents.find((r) => r.path === sub.path);
      return compactionHistory(sub, transcriptPort(sub.path, format), ports, { ...rest, agentId: ref?.agentId ?? sub.agentId ?? null });
    });
  return [main, ...subs];
}

/** Reads back the exact text of an item of an x-ray (the session's file, or the subagent file the history is of). */
export function compactionItemText(format: AgentFormat, source: LineSource, history: CompactionHistory, item: CompactionItem, cwd: string | null): string | null {
  const own = history.agentId === null ? source : fileLineSource(history.path);
  return transcriptPort(history.path, format, own).blockText(item.record.offset, item.record.length, item.record.blockIndex, cwd, item.uuid);
}
