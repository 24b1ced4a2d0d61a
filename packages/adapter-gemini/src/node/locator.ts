import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentLocator, LoadedSession, LoadOptions } from '@glassbox/core';
import { geminiFormat } from '../agent';
import { chatRoots, describeChat, discoverChats, geminiHomes } from './discover';
import { isChatFileName, isClientFileName, isSessionUuid } from './names';
import { listFolder, subagentFiles } from './subagent-files';
import { followChat } from './follow';
import { geminiNaming } from './naming';
import { readChatFile } from './read-file';
import { geminiSideFiles } from './side-files';
import { geminiRetention } from './retention';

function load(path: string, options: LoadOptions = {}): LoadedSession {
  const session = readChatFile(path, options.progress ? { progress: options.progress } : {});
  if (options.subagents === false) return { session, subagents: [] };
  return { session, subagents: subagentFiles(path, session).map((p) => readChatFile(p)) };
}

/**
 * Gemini CLI's Node side: the project folders under `<home>/.gemini/tmp/` of each home
 * (`GEMINI_CLI_HOME`, else `~`), the chats the client would list there, and reading them (a log
 * streamed, a document whole; a live log followed, its appends read alone). A fork is written beside its source under a name of the client's kind,
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
  follow: followChat,
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
