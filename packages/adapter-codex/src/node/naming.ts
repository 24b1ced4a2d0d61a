import { basename, dirname, join } from 'node:path';
import type { SessionNaming } from '@glassbox/core';
import { uuidV7 } from '../fork/ids';

/**
 * How Codex names the sessions it writes, and so how a session Glassbox writes for it (a fork, an
 * undo's restored original) must be named for `codex resume <id>` to find it (docs/codex/format.md,
 * "Glassbox's fork of a rollout"): `<sessions>/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`, the
 * date folder and the time those of the moment of writing, in local time as Codex's recorder uses,
 * and a UUIDv7 id. Codex looks a thread up by the id in rollout file names under `<home>/sessions`
 * (its state database first, then a search of the names); a file named otherwise is never found.
 *
 * The sessions folder is the one the source lies in (`<sessions>/YYYY/MM/DD/<source>`); for a source
 * in `<home>/archived_sessions/` it is `<home>/sessions` (Codex resumes only from there); a source
 * anywhere else gets its sibling in its own folder, under the same kind of name.
 */
export const codexNaming: SessionNaming = {
  newSessionId: (now) => uuidV7(now.getTime(), globalThis.crypto.getRandomValues(new Uint8Array(10))),
  pathFor: (sourcePath, sessionId, now) => {
    const root = sessionsRootOf(sourcePath);
    const folder = root === null ? dirname(sourcePath) : join(root, String(now.getFullYear()), two(now.getMonth() + 1), two(now.getDate()));
    return join(folder, rolloutName(sessionId, now));
  },
  allows: (sourcePath, path, sessionId) => {
    if (!isRolloutNameFor(basename(path), sessionId)) return false;
    const root = sessionsRootOf(sourcePath);
    if (root === null) return dirname(path) === dirname(sourcePath);
    const day = dirname(path);
    return DAY.test(basename(day)) && MONTH.test(basename(dirname(day))) && YEAR.test(basename(dirname(dirname(day)))) && dirname(dirname(dirname(day))) === root;
  },
};

const YEAR = /^\d{4}$/;
const MONTH = /^\d{2}$/;
const DAY = /^\d{2}$/;

/** `rollout-2026-12-01T03-03-21-<id>.jsonl`: Codex's `[year]-[month]-[day]T[hour]-[minute]-[second]` in local time. */
function rolloutName(sessionId: string, now: Date): string {
  const date = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
  const time = `${two(now.getHours())}-${two(now.getMinutes())}-${two(now.getSeconds())}`;
  return `rollout-${date}T${time}-${sessionId}.jsonl`;
}

function isRolloutNameFor(name: string, sessionId: string): boolean {
  const prefix = /^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-/.exec(name);
  return prefix !== null && name.slice(prefix[0].length) === `${sessionId}.jsonl`;
}

/** `<sessions>` for `<sessions>/YYYY/MM/DD/<file>`, `<home>/sessions` for `<home>/archived_sessions/<file>`, else null. */
function sessionsRootOf(sourcePath: string): string | null {
  const day = dirname(sourcePath);
  const month = dirname(day);
  const year = dirname(month);
  if (DAY.test(basename(day)) && MONTH.test(basename(month)) && YEAR.test(basename(year))) return dirname(year);
  if (basename(day) === 'archived_sessions') return join(dirname(day), 'sessions');
  return null;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}
