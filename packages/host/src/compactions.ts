import { searchCompactions } from '@glassbox/analysis';
import type { AgentFormat, CompactionHistory, LoadedSession } from '@glassbox/core';
import type { Glassbox } from '@glassbox/engine';
import { compactionItemText, fileLineSource, memoryLineSource, type LineSource } from '@glassbox/store';
import { fail, ok, type CompactionFindResult, type CompactionItemText, type CompactionsView, type Result } from '@glassbox/contract';

/** Text past this many characters is counted, not sent (as for segment details). */
const DISPLAY_CAP = 2 * 1024 * 1024;

/** What the compaction channels need of an opened session. */
export interface CompactionSubject {
  path: string;
  loaded: LoadedSession;
  /** The dropped file's bytes; undefined for a file on disk. */
  upload?: Buffer;
  repoRoot: string | null;
  diskless: boolean;
  readScope: readonly string[] | null;
  /** Filled on first use and kept with the opened session (its file unchanged). */
  cache: { histories?: CompactionHistory[] };
}

/** The compaction x-ray channels: `session:compactions`, `compaction:item`, `compaction:find`. */
export class CompactionChannels {
  constructor(private readonly glassbox: Glassbox) {}

  view(s: CompactionSubject): Result<CompactionsView> {
    return ok({ histories: this.histories(s), analysedAt: new Date().toISOString() });
  }

  item(s: CompactionSubject, agentId: string | null, index: number, segmentId: string): Result<CompactionItemText> {
    const history = this.histories(s).find((h) => h.agentId === agentId);
    const report = history?.compactions.find((c) => c.xray.index === index);
    const item = report ? [...report.xray.kept, ...report.xray.dropped].find((i) => i.segmentId === segmentId) : undefined;
    if (!history || !item) return fail('not_found', 'That item is not in the x-ray of that compaction (the session changed?).', 'Reopen the session.');
    const text = compactionItemText(this.format(s), this.source(s), history, item, s.loaded.session.cwd);
    if (text === null) return fail('not_found', 'The record that held this item can no longer be read from the transcript.');
    const truncated = text.length > DISPLAY_CAP;
    return ok({ text: truncated ? text.slice(0, DISPLAY_CAP) : text, bytes: Buffer.byteLength(text, 'utf8'), truncated, uuid: item.uuid, line: item.line });
  }

  find(s: CompactionSubject, query: string): Result<CompactionFindResult> {
    const format = this.format(s);
    const source = this.source(s);
    const cwd = s.loaded.session.cwd;
    return ok(searchCompactions(this.histories(s), query, (history, item) => compactionItemText(format, source, history, item, cwd)));
  }

  /** The x-ray of every thread, made on first use and kept with the opened session. */
  histories(s: CompactionSubject): CompactionHistory[] {
    const agent = this.glassbox.setup.agents.byId(s.loaded.session.agent);
    s.cache.histories ??= this.glassbox.sessions.compactions({ agent, loaded: s.loaded }, { repoRoot: s.repoRoot, diskless: s.diskless, readScope: s.readScope }, s.upload ? this.source(s) : undefined);
    return s.cache.histories;
  }

  /** The format of the agent that wrote the session (the parser recorded which). */
  private format(s: CompactionSubject): AgentFormat {
    return this.glassbox.setup.agents.byId(s.loaded.session.agent).format;
  }

  private source(s: CompactionSubject): LineSource {
    return s.upload ? memoryLineSource(s.upload) : fileLineSource(s.path);
  }
}
