import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GeminiSession } from '../parser';
import { isChatFileName, isSessionUuid } from './names';

/**
 * The subagent chats of a session: `chats/<session id>/*.json[l]` beside its main chat. 0.61 names
 * each in the parent's call (the parser's refs); 0.38 does not, so the folder is listed.
 */
export function subagentFiles(sessionPath: string, session: GeminiSession | null): string[] {
  const out = new Set<string>();
  for (const ref of session?.subagents ?? []) {
    const log = ref.path;
    const doc = log.replace(/\.jsonl$/i, '.json');
    if (existsSync(log)) out.add(log);
    else if (existsSync(doc)) out.add(doc);
  }
  if (session && isSessionUuid(session.id)) {
    const folder = join(dirname(sessionPath), session.id);
    for (const f of listFolder(folder)) if (isChatFileName(f)) out.add(join(folder, f));
  }
  return [...out];
}

export function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

