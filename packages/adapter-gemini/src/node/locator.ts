import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentLocator, LoadedSession, LoadOptions } from '@glassbox/core';
import { geminiFormat } from '../agent';
import type { GeminiSession } from '../parser';
import { chatRoots, describeChat, discoverChats, geminiHomes } from './discover';
import { isChatFileName, isClientFileName, isSessionUuid } from './names';
import { geminiNaming } from './naming';
import { readChatFile } from './read-file';
import { geminiSideFiles } from './side-files';
import { geminiRetention } from './retention';

/**
 * The subagent chats of a session: `chats/<session id>/*.json[l]` beside its main chat. 0.61 names
 * each in the parent's call (the parser's refs); 0.38 does not, so the folder is listed.
 */
function subagentFiles(sessionPath: string, session: GeminiSession | null): string[] {
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

function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function load(path: string, options: LoadOptions = {}): LoadedSession {
  const session = readChatFile(path, options.progress ? { progress: options.progress } : {});
  if (options.subagents === false) return { session, subagents: [] };
  return { session, subagents: subagentFiles(path, session).map((p) => readChatFile(p)) };
}

/**
 * Gemini CLI's Node side: the project folders under `<home>/.gemini/tmp/` of each home
 * (`GEMINI_CLI_HOME`, else `~`), the chats the client would list there, and reading them (a log
 * streamed, a document whole). A fork is written beside its source under a name of the client's kind,
 * with copies of its subagent chats and saved tool outputs in the folders named by its own id.
 */
export const geminiLocator: AgentLocator = {
  format: geminiFormat,
  roots: (env, home) => chatRoots(geminiHomes(env, home || homedir())),
  discover: discoverChats,
  isSessionFileName: isChatFileName,
  claimsFileName: isClientFileName,
  describe: describeChat,
  load,
  parseFile: (path, options) => readChatFile(path, { ...(options?.progress ? { progress: options.progress } : {}), ...(options?.onBytes ? { onBytes: options.onBytes } : {}) }),
  // The subagent folder named by the session's full id (cheap: the id from the file's head).
  companionFiles: (sessionPath) => {
    const id = describeChat(sessionPath).sessionId;
    const folder = join(dirname(sessionPath), id);
    return isSessionUuid(id) ? listFolder(folder).filter(isChatFileName).map((f) => join(folder, f)) : [];
  },
  naming: geminiNaming,
  sideFiles: geminiSideFiles,
  retention: geminiRetention(),
};
