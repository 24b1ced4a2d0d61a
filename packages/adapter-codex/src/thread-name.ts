import { str, type JsonObject } from './json';

/**
 * The name a person gave the thread (`event_msg/thread_name_updated`, persisted by Codex since the
 * thread-rename command): the latest one wins; an event without a name clears it.
 */
export function threadName(payload: JsonObject): string | null {
  const name = str(payload['thread_name'])?.trim();
  return name ? name : null;
}
