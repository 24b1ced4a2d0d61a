import { isObject, str, type JsonObject } from './json';
import type { CodexSession } from './session-types';

/** What `session_meta` records tell of a session: the first value of each is kept, the latest history base. */
export interface RolloutMeta {
  sessionId: string | null;
  cwd: string | null;
  version: string | null;
  gitBranch: string | null;
  forkedFromId: string | null;
  historyBase: CodexSession['historyBase'];
}

export function emptyMeta(): RolloutMeta {
  return { sessionId: null, cwd: null, version: null, gitBranch: null, forkedFromId: null, historyBase: null };
}

export function takeMeta(meta: RolloutMeta, p: JsonObject): void {
  meta.sessionId ??= str(p['id']) ?? null;
  meta.cwd ??= str(p['cwd']) ?? null;
  meta.version ??= str(p['cli_version']) ?? null;
  const git = p['git'];
  if (isObject(git)) meta.gitBranch ??= str(git['branch']) ?? null;
  meta.forkedFromId ??= str(p['forked_from_id']) ?? null;
  const base = p['history_base'];
  if (isObject(base) && typeof base['thread_id'] === 'string') {
    const end = base['end_ordinal_exclusive'];
    meta.historyBase = { threadId: base['thread_id'], endOrdinalExclusive: typeof end === 'number' ? end : null };
  }
}
