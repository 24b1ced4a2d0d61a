import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { SessionNaming } from '@glassbox/core';
import { extensionOf, mainChatName, shortIdOfName } from './names';

/**
 * How a chat Glassbox writes for Gemini CLI (a fork) is named: beside its source in the same
 * `chats/` folder (the client lists only the chats of the project it runs in), named as the client
 * names chats — `session-<UTC minute>-<first 8 of the id>` — with the source's extension (a document
 * stays a document, a log a log), and a random v4 id as the client makes them. The short id must be
 * the new id's: the client's clean-up deletes every file whose name shares a stale chat's short id.
 */
export const geminiNaming: SessionNaming = {
  newSessionId: () => randomUUID(),
  pathFor: (sourcePath, sessionId, now) => join(dirname(sourcePath), mainChatName(sessionId, now, extensionOf(sourcePath))),
  allows: (sourcePath, path, sessionId) =>
    dirname(path) === dirname(sourcePath) && shortIdOfName(basename(path)) === sessionId.slice(0, 8) && extensionOf(path) === extensionOf(sourcePath),
};
