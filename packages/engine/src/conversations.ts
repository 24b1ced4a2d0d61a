import { writeFileSync } from 'node:fs';
import type { ClassifiedSnapshot, CompactionHistory } from '@glassbox/core';
import { fileLineSource } from '@glassbox/store';
import { Refusal } from './failures';
import { transcriptHtml } from './conversation/export-html';
import { transcriptMarkdown } from './conversation/export-markdown';
import type { ExportHead } from './conversation/export-words';
import type { RecordLines } from './conversation/segment-content';
import { wholeConversation, type Transcript } from './conversation/transcript';
import type { AnalyzeRequest, Opened, Sessions } from './sessions';

export type ExportFormat = 'md' | 'html';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['md', 'html'];

/** What is read to show or export a conversation: the session, its window now, and its compactions. */
export interface ConversationInput {
  opened: Opened;
  snapshot: ClassifiedSnapshot;
  histories: readonly CompactionHistory[];
  lines: RecordLines;
  /** Characters of each item's text kept (null: all of it). */
  textCap: number | null;
}

/** An export made, and where it went (null: it was handed back, not written). */
export interface Exported {
  text: string;
  format: ExportFormat;
  writtenTo: string | null;
  items: number;
  compactions: number;
}

/** The conversation use cases: the whole session in order (the window's view), and its export. */
export class Conversations {
  constructor(private readonly sessions: Sessions) {}

  /** The whole session in reading order, from what the caller already holds (the host keeps the x-ray). */
  read(input: ConversationInput): Transcript {
    const main = input.histories.find((h) => h.agentId === null) ?? null;
    return wholeConversation({ session: input.opened.loaded.session, snapshot: input.snapshot, history: main, lines: input.lines, format: input.opened.agent.format, textCap: input.textCap });
  }

  /** The session as Markdown or self-contained HTML (dead segments marked), from what the caller holds. */
  render(input: Omit<ConversationInput, 'textCap'>, format: ExportFormat, at: Date): Omit<Exported, 'writtenTo'> {
    const t = this.read({ ...input, textCap: null });
    const session = input.opened.loaded.session;
    const head: ExportHead = {
      title: session.title ?? session.firstPrompt?.split('\n')[0]?.slice(0, 120) ?? session.id,
      sessionId: session.id,
      agent: input.opened.agent.format.label,
      path: session.path,
      cwd: session.cwd,
      at: at.toISOString(),
    };
    const text = format === 'md' ? transcriptMarkdown(head, t) : transcriptHtml(head, t);
    return { text, format, items: t.items.length, compactions: t.compactions.length };
  }

  /**
   * `glassbox export`: reads the session, works out its window and compactions, and writes the export
   * to `out` — never over a file that exists (refused, nothing written) — or hands the text back.
   */
  exportSession(path: string, r: AnalyzeRequest & { format: ExportFormat; out: string | null; at?: Date }): Exported {
    const opened = this.sessions.open(path);
    const snapshot = this.sessions.analyze(opened.loaded, r);
    const histories = this.sessions.compactions(opened, r);
    const made = this.render({ opened, snapshot, histories, lines: fileLineSource(path) }, r.format, r.at ?? new Date());
    if (r.out === null) return { ...made, writtenTo: null };
    try {
      // Exclusive create: an existing file is never replaced.
      writeFileSync(r.out, made.text, { encoding: 'utf8', flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Refusal('exists', `${r.out} already exists: nothing was written (an export never replaces a file; name another with --out).`, false);
      throw error;
    }
    return { ...made, writtenTo: r.out };
  }
}
