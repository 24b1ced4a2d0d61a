import { createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** The 32-hex-digit message ids the client gives its own context messages. */
const HEX_ID = /"id":"[0-9a-f]{8}([0-9a-f]{24})"/g;
/** Function call ids (`run_shell_command__run_shell_command_8c1850ddd7b8`): their 12-hex-digit tail. */
const CALL_ID = /(__[a-z_]+_)[0-9a-f]{4}([0-9a-f]{8})\b/g;

/**
 * A large Gemini CLI chat log (0.39+) made of real records: the first source's session record, then
 * the records of every source after its own, repeated until the target size, with message and call ids
 * renamed per repetition. The sources' history rewrites (`$set` of the messages: a resume, a
 * compression) come along, so the history is replaced as in a long real session. Nothing is invented:
 * every line is a real record with fresh ids.
 */
export async function buildLargeChatLog(sources: string[], target: string, minBytes: number): Promise<number> {
  if (existsSync(target) && statSync(target).size >= minBytes) return statSync(target).size;
  const files = sources.map((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim().length > 0));
  const header = files[0]?.[0];
  if (header === undefined) throw new Error('no source chat log');
  const body = files.flatMap((lines) => lines.slice(1));
  const out = createWriteStream(target);
  let bytes = Buffer.byteLength(header) + 1;
  out.write(header + '\n');
  for (let rep = 0; bytes < minBytes; rep++) {
    const tag = rep.toString(16).padStart(8, '0');
    for (const line of body) {
      const renamed = renameChatRecord(line, tag);
      bytes += Buffer.byteLength(renamed) + 1;
      if (!out.write(renamed + '\n')) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** A real chat log record with its ids renamed by an 8-hex-digit tag (a repetition of it). The session id stays. */
export function renameChatRecord(line: string, tag: string): string {
  return line
    .replace(UUID, (u) => `${tag}${u.slice(8)}`)
    .replace(HEX_ID, (_m, rest: string) => `"id":"${tag}${rest}"`)
    .replace(CALL_ID, (_m, head: string, rest: string) => `${head}${tag.slice(4)}${rest}`);
}
