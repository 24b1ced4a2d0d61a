/** Keeping sessions: the client's clean-up of a session, Glassbox's kept copies, keep and restore. */

/** The agent client's clean-up of this session: "deleted by Claude Code in 3 days". */
export interface RetentionView {
  /** The client's name. */
  client: string;
  /** ISO time the client deletes the file (its modification time + the clean-up period); null: never. */
  expiresAt: string | null;
  /** What decided it ("cleanupPeriodDays 10 in ~/.claude/settings.json"). */
  decidedBy: string;
}

/** A session kept in Glassbox's archive. */
export interface KeptView {
  /** ISO time the newest version was kept, and how many versions there are. */
  keptAt: string;
  versions: number;
  /** The newest version holds the file as it is now. */
  current: boolean;
  originalPath: string;
  /** The original is gone and this row reads the archive's copy: when Glassbox saw it gone, and whether the client's clean-up had come due. */
  gone: { noticedAt: string; byClient: boolean } | null;
}

/** `session:keep`: sessions named by the paths the list shows. */
export interface KeepArgs {
  paths: string[];
}

export interface KeepOutcome {
  path: string;
  /** 'kept': a new version was stored; 'unchanged': the archive already held it; 'failed': see message. */
  status: 'kept' | 'unchanged' | 'failed';
  message: string | null;
  /** Bytes of the session's files, and what this keep wrote to the archive for them. */
  bytes: number;
  writtenBytes: number;
}

export interface KeepResultView {
  outcomes: KeepOutcome[];
}

/** `session:restore`: a kept session by the path its row shows (the archive's copy, or the original). */
export interface RestoreArgs {
  path: string;
}

export interface RestoredView {
  sessionId: string;
  path: string;
  /** Files written, the transcript last. */
  files: number;
  resumeCommand: string | null;
  resumeNote: string | null;
}

/** The clean-up rules in force, the auto-keep setting and what the archive holds. */
export interface RetentionInfo {
  folders: RetentionFolder[];
  /** "Keep every session automatically": after it has been idle for a while, and again before its deletion date. */
  autoKeep: boolean;
  archive: { root: string; sessions: number; versions: number; storedBytes: number };
}

export interface RetentionFolder {
  /** A configuration folder the client cleans, and the client's name. */
  folder: string;
  client: string;
  /** Days of inactivity before deletion; null when the clean-up is off there. */
  days: number | null;
  decidedBy: string;
  /** Said once: a very short period, or a setting some client versions misread. */
  warning: string | null;
  /** Settings files that could not be used as written (the default was assumed, or the clean-up is off). */
  problems: string[];
}

export interface AutoKeepArgs {
  enabled: boolean;
}
