import type { AgentRegistry } from '@glassbox/core';
import { Archive } from './archive';
import { ForkError } from '../shared/atomic';
import { forkLineage } from './lineage';
import type { ForkManifest } from './manifest';

/**
 * What one session can recall from the archive: the payloads its own fork (and the forks it descends
 * from) removed — each elision's middle and each tombstoned payload the model saw. Nothing else in the
 * archive is reachable through it: every ref is looked up among these entries, never in the objects
 * folder at large, so another session's text is never returned.
 */
export interface RecallEntry {
  /** The hash prefix the fork's text shows (the marker's or the tombstone's): 12 hex digits. */
  ref: string;
  sha256: string;
  /** An elision's middle; a tombstoned payload; or the whole of an elided payload (its head and tail are still in the fork). */
  kind: 'elided' | 'tombstone' | 'whole';
  toolUseId: string | null;
  toolName: string;
  segmentId: string;
  /** The fork whose manifest names it. */
  forkId: string;
  bytes: number;
}

export interface RecalledText {
  entry: RecallEntry;
  /** The lines asked for, each with its newline as in the payload. */
  text: string;
  /** 0-based line the text starts at, and how many lines the payload has. */
  offset: number;
  lines: number;
  totalLines: number;
}

/** Lines recalled at most at once (a page), and the default page. */
export const RECALL_MAX_LINES = 2000;
export const RECALL_DEFAULT_LINES = 400;
/**
 * Characters of one page at most (whole lines; a single longer line is one page): clients keep a
 * larger tool result out of the context and show a preview instead (Claude Code writes it to a file),
 * so a page stays under that and the agent reads on from the offset the page names.
 */
export const RECALL_PAGE_CHARS = 24_000;

export class SessionRecall {
  private readonly archive: Archive;
  readonly entries: readonly RecallEntry[];

  constructor(archiveDir: string, agents: AgentRegistry, readonly sessionId: string) {
    this.archive = new Archive(archiveDir);
    this.entries = entriesOf(this.archive, agents, sessionId);
  }

  /** The entries a ref names: a hash prefix (6 hex digits or more) or a tool_use / call id. */
  find(ref: string): RecallEntry[] {
    const r = ref.trim();
    const hex = r.toLowerCase();
    if (/^[0-9a-f]{6,64}$/.test(hex)) {
      const byHash = this.entries.filter((e) => e.sha256.startsWith(hex));
      if (byHash.length > 0) return byHash;
    }
    // By call id: an elision's middle before the whole payload of a tombstone.
    const rank = { elided: 0, tombstone: 1, whole: 2 };
    const byId = this.entries.filter((e) => e.toolUseId === r).sort((a, b) => rank[a.kind] - rank[b.kind]);
    return byId.slice(0, 1);
  }

  /** The whole text of an entry, checked against its hash (a damaged object is an error, never served). */
  textOf(entry: RecallEntry): string {
    try {
      return this.archive.get(entry.sha256).toString('utf8');
    } catch (error) {
      if (error instanceof ForkError) throw new RecallError('damaged', `the archived payload ${entry.ref} cannot be read: ${error.message}`);
      throw error;
    }
  }

  /** A page of lines of what `ref` names. */
  recall(ref: string, offset = 0, limit = RECALL_DEFAULT_LINES): RecalledText {
    if (!Number.isInteger(offset) || offset < 0) throw new RecallError('bad_range', `offset ${offset} is not a line number (0 or more)`);
    if (!Number.isInteger(limit) || limit < 1 || limit > RECALL_MAX_LINES) throw new RecallError('bad_range', `limit ${limit} must be a whole number from 1 to ${RECALL_MAX_LINES}`);
    const found = this.find(ref);
    if (found.length === 0) throw new RecallError('unknown_ref', `nothing this session's forks removed is named ${JSON.stringify(ref)}; refs are the hash prefixes in its markers and tombstones, or a tool_use id`);
    const hashes = new Set(found.map((e) => e.sha256));
    if (hashes.size > 1) throw new RecallError('ambiguous_ref', `${JSON.stringify(ref)} names ${hashes.size} payloads (${[...hashes].map((h) => h.slice(0, 12)).join(', ')}); give more of the hash`);
    const entry = found[0] as RecallEntry;
    const lines = splitLines(this.textOf(entry));
    if (offset >= lines.length && !(offset === 0 && lines.length === 0)) throw new RecallError('past_end', `offset ${offset} is past the end: ${entry.ref} has ${lines.length} line(s)`);
    const page: string[] = [];
    let chars = 0;
    for (let i = offset; i < Math.min(lines.length, offset + limit); i++) {
      const line = lines[i] as string;
      if (page.length > 0 && chars + line.length > RECALL_PAGE_CHARS) break;
      page.push(line);
      chars += line.length;
    }
    return { entry, text: page.join(''), offset, lines: page.length, totalLines: lines.length };
  }

  /** Where a literal text occurs in this session's archived payloads: refs and 1-based line numbers, no content. */
  search(query: string, maxLinesPerEntry = 50): { entry: RecallEntry; lines: number[]; more: number }[] {
    if (query === '') throw new RecallError('bad_query', 'the query is empty');
    const out: { entry: RecallEntry; lines: number[]; more: number }[] = [];
    const seen = new Set<string>();
    // What is missing from the fork: middles and tombstoned payloads (an elided payload's ends are in it).
    for (const entry of this.entries) {
      if (entry.kind === 'whole' || seen.has(entry.sha256)) continue;
      seen.add(entry.sha256);
      const hits: number[] = [];
      splitLines(this.textOf(entry)).forEach((line, i) => {
        if (line.includes(query)) hits.push(i + 1);
      });
      if (hits.length > 0) out.push({ entry, lines: hits.slice(0, maxLinesPerEntry), more: Math.max(0, hits.length - maxLinesPerEntry) });
    }
    return out;
  }
}

export class RecallError extends Error {
  constructor(
    readonly code: 'unknown_ref' | 'ambiguous_ref' | 'damaged' | 'past_end' | 'bad_range' | 'bad_query' | 'no_session',
    message: string,
  ) {
    super(message);
  }
}

/** Lines with their newlines kept, so a page joined back is the payload's own bytes. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const out = text.split(/(?<=\n)/);
  return out;
}

/**
 * The entries of a session: its own fork's manifest and, through `original.sessionId`, those of the
 * forks it descends from (a fork of a fork still shows the first one's markers). A manifest that
 * cannot be read is skipped by the lineage and contributes nothing.
 */
function entriesOf(archive: Archive, agents: AgentRegistry, sessionId: string): RecallEntry[] {
  const lineage = forkLineage(archive.root, agents);
  const out: RecallEntry[] = [];
  const visited = new Set<string>();
  for (let id: string | undefined = sessionId; id !== undefined && !visited.has(id); ) {
    visited.add(id);
    const entry = lineage.byForkId.get(id);
    if (!entry || entry.kind !== 'clean') break;
    let manifest: ForkManifest;
    try {
      manifest = archive.getManifest(id, agents);
    } catch {
      break;
    }
    for (const a of manifest.actions) {
      const base = { toolUseId: a.toolUseId ?? null, toolName: a.toolName, segmentId: a.segmentId, forkId: manifest.forkId };
      if (a.elision) out.push({ ...base, ref: a.elision.sha256.slice(0, 12), sha256: a.elision.sha256, kind: 'elided', bytes: a.elision.bytes });
      const sent = a.removed.find((r) => r.sentToModel);
      if (sent) out.push({ ...base, ref: sent.sha256.slice(0, 12), sha256: sent.sha256, kind: a.elision ? 'whole' : 'tombstone', bytes: sent.bytes });
    }
    id = manifest.original.sessionId;
  }
  return out;
}
