import { createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Call ids, and the ids of the Responses API items (messages, reasoning, responses), renamed per repetition. */
const API_ID = /\b(call|msg|rs|resp|fc|ctc)_([A-Za-z0-9]{8})/g;
const ORDINAL = /^(\{"timestamp":"[^"]*",)"ordinal":\d+,/;

/**
 * A large Codex rollout made of real records: the first source's session header, then the records of
 * every source after its header, repeated until the target size — every uuid (turn ids, window ids),
 * call id and item id renamed per repetition so that calls and outputs stay paired one to one, and
 * the ordinals numbered on as Codex numbers them. The sources' compactions come along, so the window
 * is let go as in a long real session. Nothing is invented: every line is a real record with fresh ids.
 */
export async function buildLargeRollout(sources: string[], target: string, minBytes: number): Promise<number> {
  if (existsSync(target) && statSync(target).size >= minBytes) return statSync(target).size;
  const files = sources.map((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim().length > 0));
  const header = files[0]?.[0];
  if (header === undefined) throw new Error('no source rollout');
  const body = files.flatMap((lines) => lines.slice(1));
  const out = createWriteStream(target);
  let bytes = Buffer.byteLength(header) + 1;
  out.write(header + '\n');
  let ordinal = 1;
  for (let rep = 0; bytes < minBytes; rep++) {
    const tag = rep.toString(16).padStart(8, '0');
    for (const line of body) {
      const renamed = renameRollout(line, tag, ordinal);
      ordinal++;
      bytes += Buffer.byteLength(renamed) + 1;
      if (!out.write(renamed + '\n')) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** A real rollout record with its ids renamed by an 8-hex-digit tag (a repetition of it), numbered `ordinal` when it has one. */
export function renameRollout(line: string, tag: string, ordinal: number): string {
  return line
    .replace(UUID, (u) => `${tag}${u.slice(8)}`)
    .replace(API_ID, (_m, kind: string) => `${kind}_${tag}`)
    .replace(ORDINAL, (_m, head: string) => `${head}"ordinal":${ordinal},`);
}
