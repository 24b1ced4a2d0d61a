import { createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Message, request and tool-call ids, renamed per repetition like the uuids. */
const API_ID = /\b(msg|req|toolu)_([A-Za-z0-9]{8})/g;

/**
 * A large transcript made of real records: the given transcripts repeated until the target size,
 * every uuid and API id renamed per repetition (so records stay distinct) and each repetition a new root, as
 * after a compaction. Nothing is invented: every line is a real record with fresh ids.
 */
export async function buildLargeTranscript(sources: string[], target: string, minBytes: number): Promise<number> {
  if (existsSync(target) && statSync(target).size >= minBytes) return statSync(target).size;
  const lines = sources.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim().length > 0));
  const out = createWriteStream(target);
  let bytes = 0;
  for (let rep = 0; bytes < minBytes; rep++) {
    const tag = rep.toString(16).padStart(8, '0');
    for (const line of lines) {
      const renamed = renameIds(line, tag);
      bytes += Buffer.byteLength(renamed) + 1;
      if (!out.write(renamed + '\n')) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** A real record with every uuid and API id renamed by an 8-hex-digit tag (a repetition of the record). */
export function renameIds(line: string, tag: string): string {
  return line.replace(UUID, (u) => `${tag}${u.slice(8)}`).replace(API_ID, (_m, kind: string) => `${kind}_${tag}`);
}
