/**
 * The seam between Glassbox and one coding agent (Claude Code, Codex CLI, …). Everything that knows an
 * agent's file format, where it keeps its sessions, what its client sends and how it resumes lives in
 * that agent's adapter package, behind these two interfaces; the store, the host, the CLI and the
 * desktop app receive adapters from one composition root (`packages/agents`) and never name one.
 *
 * `AgentFormat` is pure (runs anywhere); `AgentLocator` is its Node side (finding and reading files).
 */
import type { ForkAction, ForkBuilder, ForkValidator, ValidateOptions } from './fork';
import type { ReadProgress } from './cancel';
import type { PriceTable } from './prices';
import type { RetentionRule } from './retention';
import type { Session } from './session';
import type { SummaryState, TranscriptSummarizer } from './summary';

/** A parser fed one line at a time: it never needs the file as one string. */
export interface TranscriptLineParser {
  /** One line (without its newline); `offset` is its byte offset in the file. */
  push(text: string, line: number, offset: number, byteLength: number): void;
  /** Ends the parse; `endsWithNewline` tells a torn last line (a live session) from a bad one. */
  finish(endsWithNewline: boolean): Session;
  /**
   * The session as `finish(true)` would give it now, while the parse goes on (the compaction x-ray
   * takes one before each compaction in a single pass: re-parsing the file up to each would grow with
   * the square of their number). Costs what the parser holds, not what it read. Optional.
   */
  snapshot?(): Session;
}

export interface ParseOptions {
  /** The file being parsed, for problem messages and the session path. */
  path: string;
  /** The session id from the file name, used when no record names one. */
  fallbackId?: string;
  /** Keep the text reads captured in memory (for callers with no file to read it back from). */
  keepCapturedText?: boolean;
}

/**
 * What one session is on disk, as the agent's client writes it. The store picks its reader and its
 * refresh plan from this, and never assumes a file extension of its own.
 * - `jsonl-log`: one JSON record per line, appended (Claude Code, Codex, Gemini CLI 0.39+).
 * - `json-document`: one JSON document, rewritten whole on every change (Gemini CLI up to 0.38); its
 *   parse cannot end before its last line, and a read during a rewrite may meet it half-written.
 */
export type SourceUnit = 'jsonl-log' | 'json-document';

export interface SessionSource {
  /** The shapes a session of this agent can have (a client that changed format over versions has several). */
  readonly units: readonly SourceUnit[];
  /** File name endings a session file may have, lower case with the dot (`.jsonl`, `.json`). */
  readonly extensions: readonly string[];
  /**
   * True when a session file only ever grows by appended lines that never change what came before:
   * the list's summary then resumes from its saved offset. False: every change re-reads the file
   * whole (a rewritten document, or a log whose records may replace the history they follow).
   */
  readonly appendOnly: boolean;
  /**
   * True when a folder beside the file, named like it without its extension, holds the session's
   * subagent transcripts and large outputs (`<id>/subagents/`, `<id>/tool-results/`: Claude Code):
   * a fork carries them. False: the agent keeps no such folder (its other files stay where they are).
   */
  readonly sideFolder: boolean;
}

/** How sure an adapter is that some lines are its agent's transcript. */
export type Recognition =
  | { verdict: 'yes' }
  /** Certainly another format; `what` names it when known ("a Codex CLI rollout"). */
  | { verdict: 'no'; what?: string }
  /** Nothing in these lines decides (empty, only unknown record types). */
  | { verdict: 'unknown' };

export interface AgentFormat {
  /** Stable id stored in the index and shown as the agent badge: `claude-code`, `codex`. */
  readonly id: string;
  /** For people: "Claude Code". */
  readonly label: string;
  /** What a session is on disk: its unit, its file name endings, whether it only grows. */
  readonly source: SessionSource;
  /**
   * Decides from a file's first lines (JSON text, in order) whether it is this agent's transcript. A
   * 'yes' stands: the same lines with more after them are 'yes' too (the index recognises a file from
   * its first few kilobytes when they decide; the store's claim.test.ts checks it on the corpus).
   */
  recognise(head: readonly string[]): Recognition;
  createParser(options: ParseOptions): TranscriptLineParser;
  /**
   * Parses lines held in memory (no I/O), as the streaming reader would feed them: the session reads a
   * read's captured text back from those lines when the analysis asks (as a file's session reads it
   * back from disk), so a plan made from the lines about to be forked proves what one from the file does.
   */
  parseLines(lines: readonly string[], options: ParseOptions): Session;
  /** The resumable summary for the session list; `state` resumes a previous pass. */
  createSummarizer(state: SummaryState | null, subagentFile: boolean): TranscriptSummarizer;
  /**
   * Reads the closing lines of a file (in file order) into a head-only state: last activity, the
   * latest title and the last reported context. True when it found the last reported context.
   */
  readTail(lines: readonly string[], state: SummaryState): boolean;
  /**
   * The text the model reads for one content block, read back from its record's line (the parser keeps
   * only sizes and previews): what compaction x-rays compare with a summary and search. `uuid`: the
   * node's id, for a line that holds several items (a Codex compaction's replacement history).
   */
  blockText?(recordLine: string, blockIndex: number, cwd: string | null, uuid?: string): string | null;
  /** The summary the model wrote at a compaction, from its record's line, without the client's own wording around it. */
  compactionSummary?(recordLine: string): string | null;
  /** The provider's dated list prices (users may override them). */
  readonly prices: PriceTable;
  /**
   * A fork builder for these actions: an index pass over the original's lines, then a per-line
   * transform (payloads replaced by tombstones, the session renamed). Streams: never the file whole.
   */
  createForkBuilder(actions: readonly ForkAction[], newSessionId: string): ForkBuilder;
  /** Differential validation, fed (original, fork) line pairs: what the fork introduced, stricter than the client. */
  createForkValidator(options?: ValidateOptions): ForkValidator;
  /** The command that resumes a session in the agent's own client, run from `cwd`. */
  resumeCommand(sessionId: string, cwd: string | null): string;
  /** What the client's session ids look like: an archive's manifest naming another is not trusted. */
  readonly sessionIdPattern: RegExp;
  /**
   * The model's context window and where the client compacts on its own, as far as the transcript
   * tells (`reportedTokens`: the largest request it reported; `session`: what the adapter parsed, for
   * a window the transcript states). Null when the model is unknown.
   */
  contextLimits?(of: { model: string | null; reportedTokens: number | null; session: Session }): ContextLimits | null;
  /**
   * Which part of the client's own set-up a segment of the transcript is (memory files, tool and skill
   * listings), for splitting "system prompt, tools, memory"; null for conversation.
   */
  setupPart?(segment: { kind: string; source: { type: string; label: string } }): string | null;
  /** What the reported total holds beyond the transcript, in one sentence (system prompt, tools, …). */
  readonly remainderNote?: string;
  /**
   * The text the client sends for a record that is not a message (an attachment: a re-attached file,
   * a hook's output), as the model reads it; null when the record is a message or unknown.
   */
  recordText?(record: unknown, cwd: string | null): string | null;
  /**
   * An attachment as a person reads it in the conversation: what it is in words ("file src/a.ts,
   * attached again by the client") and its content without the client's wrapping (a simulated tool
   * call around a file). Null when the record is not an attachment.
   */
  attachmentView?(record: unknown, cwd: string | null): { what: string; text: string } | null;
  /**
   * How to resume a session from a folder that exists here (the recorded one, or the folder it is
   * mapped to), when the client's lookup depends on where it runs. Without it, `resumeFrom` runs
   * `resumeCommand` from whichever folder exists.
   */
  resumeInstruction?(place: ResumePlace): ResumeInstruction;
}

/** What a client lets a session's window hold. */
export interface ContextLimits {
  /** The model's context window, in tokens. */
  window: number;
  /** How it was found ("claude-sonnet-4-5: 200k; a request above 200k means the 1M-context beta"). */
  windowBasis: string;
  /** Where the client compacts on its own; null when it does not. */
  autoCompact: {
    /** Reported tokens at which it compacts. */
    at: number;
    /** Before a request (proactive), or only when the provider refuses one as too long. */
    proactive: boolean;
    /** Where the figure comes from (the client's version and its rule). */
    basis: string;
  } | null;
}

/** Where a session could be resumed from on this machine. */
export interface ResumePlace {
  sessionId: string;
  sessionPath: string;
  /** The working directory recorded in the session, and whether it exists here. */
  cwd: string | null;
  cwdExists: boolean;
  /** The folder it is mapped to (null: none), and whether that exists. */
  mapped: string | null;
  mappedExists: boolean;
}

export interface ResumeInstruction {
  /** The command to paste, or null when no folder to run it from exists here. */
  command: string | null;
  /** The folder the command runs in. */
  folder: string | null;
  /** Why the command looks the way it does, or why there is none. */
  note: string | null;
}

/** The agent's own resume rule, or: run its resume command from the folder that exists. */
export function resumeFrom(format: AgentFormat, place: ResumePlace): ResumeInstruction {
  if (format.resumeInstruction) return format.resumeInstruction(place);
  const folder = place.cwdExists ? place.cwd : place.mappedExists ? place.mapped : null;
  if (folder !== null) return { command: format.resumeCommand(place.sessionId, folder), folder, note: folder === place.cwd ? null : `${place.cwd} is not on this machine; run it from the folder it is mapped to` };
  return {
    command: format.resumeCommand(place.sessionId, null),
    folder: null,
    note: place.cwd ? `${place.cwd} is not on this machine: run it from the folder that holds the project now` : null,
  };
}

/** A transcript file found under one of an agent's roots. */
export interface DiscoveredFile {
  /** The agent whose transcript it is (its format id). */
  agent: string;
  path: string;
  root: string;
  /** The project the file belongs to, as the agent names it (Claude Code: the project folder's slug). */
  project: string;
  kind: 'session' | 'subagent';
  /** For subagents: the session file they belong to (null until known). */
  parentPath: string | null;
  agentId: string | null;
  /** The session id the file name gives (subagents: the parent's). */
  sessionId: string;
}

export interface LoadedSession {
  session: Session;
  /** Subagent transcripts of the session, each its own window, linked through `session.subagents`. */
  subagents: Session[];
}

/** Environment the locator may read: the process's, or a test's. */
export type AgentEnv = Readonly<Record<string, string | undefined>>;

export interface AgentLocator {
  readonly format: AgentFormat;
  /** Where this agent keeps sessions on this machine (may not exist). */
  roots(env: AgentEnv, home: string): string[];
  /**
   * Every transcript under the roots (sessions and their subagent files) that the client would list:
   * the adapter decides which files are sessions (names, extensions, folders), drops copies of one
   * session (the same id in two files: the one the client would use is kept) and files its client
   * never lists (a start-up stub with nothing to resume).
   */
  discover(roots: readonly string[]): DiscoveredFile[];
  /**
   * Whether a file name under a root may be one of this agent's transcripts (the watcher's filter):
   * without it, a name ending in one of `format.source.extensions`.
   */
  isSessionFileName?(name: string): boolean;
  /**
   * Whether a file name is one only this agent's client gives its sessions (Gemini CLI's
   * `session-<minute>-<short id>.json[l]`): a file no adapter recognises by content is then read by
   * this agent, whose parser says what is wrong with it. Optional.
   */
  claimsFileName?(name: string): boolean;
  /** What a file opened from anywhere is (a session or a subagent file), from its path alone. */
  describe(path: string): Omit<DiscoveredFile, 'root'>;
  /**
   * Parses a session and its subagent files. Bad input is a problem on the session, never a throw;
   * `progress` hears how far the read is (and may throw CancelledError to stop it: that one is thrown).
   */
  load(path: string, options?: LoadOptions): LoadedSession;
  /**
   * Parses one file alone (for benchmarks, plans, and subagent windows opened on their own).
   * `onBytes` (optional for an agent to honour) sees every byte parsed, in order, as it is read: a
   * plan checksums exactly the bytes it was made from.
   */
  parseFile(path: string, options?: { progress?: ReadProgress; onBytes?: (chunk: Uint8Array) => void }): Session;
  /** Other files `load` reads with a session (its subagents' transcripts), so callers can check them first. */
  companionFiles?(sessionPath: string): string[];
  /**
   * Follows a session as it grows (optional): read once like `load`, then `update()` reads only what
   * was appended since. An agent without it is read whole again after every change.
   */
  follow?(path: string, options?: LoadOptions): SessionFollower;
  /**
   * A session's own files kept in folders named by its id elsewhere than beside its transcript
   * (Gemini CLI: `chats/<id>/`, `tool-outputs/session-<id>/`): a fork carries a copy of each into the
   * same folders for its own id. Without it, a fork carries only a `format.source.sideFolder`.
   */
  readonly sideFiles?: SessionSideFiles;
  /**
   * Whether `load` honours `LoadOptions.onRecord` (hands on each line of the session file with the
   * record it parsed), so that an index pass can summarise a file from the same read and parse.
   */
  readonly sharesRecords?: boolean;
  /** When the agent's own client deletes sessions, for agents whose client does (Claude Code). */
  readonly retention?: AgentRetention;
  /**
   * How a session Glassbox writes (a fork, an undo's restored original) is named and placed, for
   * clients whose lookup by id depends on it (Codex finds `rollout-<time>-<id>.jsonl` in date
   * folders). Without it: a random v4 id, `<id>.jsonl` beside the source.
   */
  readonly naming?: SessionNaming;
}

/** Where a session's side files are, for a session file and id (AgentLocator.sideFiles). */
export interface SessionSideFiles {
  /**
   * The folders, each under a stable name (the first segment of a carried file's `rel` in a fork's
   * manifest): where they are for the session `sessionId` written at `sessionPath` (they may not exist).
   */
  folders(sessionPath: string, sessionId: string): { name: string; path: string }[];
  /**
   * The files in those folders the transcript names (a masked output's full text), which a fork of it
   * must carry: one that is missing refuses the fork, naming it. Reads the transcript.
   */
  referenced(sessionPath: string, sessionId: string): string[];
}

/** Where and under which name a new session of an agent is written, as its own client would write it. */
export interface SessionNaming {
  /** A new session id, as the client makes them. */
  newSessionId(now: Date): string;
  /** The path of a new session `sessionId` written at `now` from the session file at `sourcePath`. */
  pathFor(sourcePath: string, sessionId: string, now: Date): string;
  /**
   * Whether `path` is one `pathFor` gives for `sourcePath` and `sessionId` at some time: a manifest
   * naming any other place was edited, and its paths are not used.
   */
  allows(sourcePath: string, path: string, sessionId: string): boolean;
}

/**
 * An agent client's clean-up of old sessions, and which files go with a session: what Glassbox must
 * keep so that nothing the client deletes is lost, and where a restore puts each file back.
 */
export interface AgentRetention {
  /**
   * The rule that applies to a session file, from the settings the client reads (`cwd`: the working
   * directory recorded in the session, whose project settings may apply). Reads settings files;
   * a malformed one is reported in the rule's sources, never thrown. The rule depends on the session's
   * configuration folder (configFolderOf) and `cwd` alone: callers may reuse it for every session of
   * the same pair.
   */
  ruleFor(sessionPath: string, cwd: string | null): RetentionRule;
  /** The configuration folder the client cleans that holds this session (null: one it never cleans). */
  configFolderOf(sessionPath: string): string | null;
  /** The files that belong to a session besides its transcript (folders listed whether or not they exist). */
  layoutOf(sessionPath: string): SessionLayout;
  /**
   * Where a part of a kept session goes back for a session file at `sessionPath` (of session
   * `sessionId`, when the caller knows it: a file name may not hold the whole id); null for a name it
   * does not know.
   */
  placeOf(sessionPath: string, partName: string, sessionId?: string): { path: string; kind: SessionPart['kind'] } | null;
}

/** Where a session's other files live: each part is a folder or file with a stable name in the archive. */
export interface SessionLayout {
  parts: SessionPart[];
}

export interface SessionPart {
  /** Stable name of the part in a kept copy ("session-folder", "file-history"): never a path. */
  name: string;
  /** Where it is for this session file on this machine. */
  path: string;
  kind: 'folder' | 'file';
}

/**
 * A session followed while its client appends to it (AgentLocator.follow): what has been read is
 * kept (the parser's state, the offset of the last complete line), so an append costs the new lines
 * and the window, not the file.
 */
export interface SessionFollower {
  /** The session and its subagents as last read. */
  readonly loaded: LoadedSession;
  /**
   * Reads the complete lines appended since the last read (a line still being written waits for its
   * newline) and gives the session now. Null when the file was not only appended to (rewritten,
   * truncated, replaced, unreadable): the caller reads it whole again.
   */
  update(options?: LoadOptions): LoadedSession | null;
}

export interface LoadOptions {
  /** Read the session's subagent files too (default true). */
  subagents?: boolean;
  /** Bytes read of the session file so far (its subagent files are small and not counted). */
  progress?: ReadProgress;
  /**
   * Every line of the session file (not its subagents'), in order, with its number, byte offset and
   * length, and what the reader's JSON.parse made of it (undefined: not JSON). Only an agent whose
   * locator says `sharesRecords` calls it; the record is the reader's own, never to be changed.
   */
  onRecord?: (text: string, line: number, offset: number, byteLength: number, record: unknown) => void;
  /**
   * Only the figures will be read (the index): a reader may leave out what is only ever shown, such
   * as previews. Classes, proofs' facts and every count are the same.
   */
  figuresOnly?: boolean;
}

/** One agent: its format and its Node side. */
export interface Agent {
  readonly format: AgentFormat;
  readonly locator: AgentLocator;
}
