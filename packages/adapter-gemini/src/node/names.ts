/**
 * Gemini CLI's chat file names (docs/gemini/format.md, "Where the files are"): a main chat is
 * `session-<YYYY-MM-DDTHH-MM>-<first 8 of the session id>.json` (up to 0.38) or `.jsonl` (0.39+),
 * directly in `<project>/chats/`; a subagent's chat is `<its id>.json[l]` in `chats/<parent's full id>/`.
 */
const MAIN = /^session-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2})-([0-9a-z]{8})\.jsonl?$/i;
const CHAT = /\.jsonl?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isMainChatName(name: string): boolean {
  return MAIN.test(name);
}

/** `checkpoint-<tag>.json` (`/chat save`) and `<ISO time with - and _>-<file>-<tool>.json` (a restore point). */
const SAVED_CHAT = /^checkpoint-.+\.json$/;
const RESTORE_POINT = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}_\d{3}Z-.+\.json$/;

/** A name only Gemini CLI gives its files: a main chat, a saved chat, a restore point (the last two are no sessions). */
export function isClientFileName(name: string): boolean {
  return MAIN.test(name) || SAVED_CHAT.test(name) || RESTORE_POINT.test(name);
}

/** A chat file of any kind (the watcher's filter: main chats and subagent chats). */
export function isChatFileName(name: string): boolean {
  return CHAT.test(name);
}

/** The short id (the session id's first 8 characters) in a main chat's name. */
export function shortIdOfName(name: string): string | null {
  return MAIN.exec(name)?.[2] ?? null;
}

export function isSessionUuid(id: string): boolean {
  return UUID.test(id);
}

/** `.json` or `.jsonl`, as the name ends. */
export function extensionOf(name: string): '.json' | '.jsonl' {
  return /\.jsonl$/i.test(name) ? '.jsonl' : '.json';
}

/** The name Gemini CLI gives a chat started at `now` (UTC minutes, as its recorder writes them). */
export function mainChatName(sessionId: string, now: Date, extension: '.json' | '.jsonl'): string {
  const minute = now.toISOString().slice(0, 16).replace(/:/g, '-');
  return `session-${minute}-${sessionId.slice(0, 8)}${extension}`;
}
