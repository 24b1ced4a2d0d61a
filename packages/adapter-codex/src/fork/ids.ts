/**
 * The session id of a fork appears in the file only as whole JSON string values (`session_meta.id`,
 * `session_id`, `thread_id`, …). Renaming replaces exactly those values, as text: a quote that is
 * not escaped, the id, a quote. The same id inside a longer string (a path, a window id, a tool
 * output) is left alone, so nothing the model sees changes.
 */
export function renameIdValues(line: string, from: string, to: string): { text: string; count: number } {
  const needle = `"${from}"`;
  let count = 0;
  let out = '';
  let at = 0;
  for (let i = line.indexOf(needle); i >= 0; i = line.indexOf(needle, i + needle.length)) {
    if (isEscaped(line, i)) continue;
    out += line.slice(at, i) + `"${to}"`;
    at = i + needle.length;
    count++;
  }
  return { text: count === 0 ? line : out + line.slice(at), count };
}

function isEscaped(text: string, quoteAt: number): boolean {
  let backslashes = 0;
  for (let j = quoteAt - 1; j >= 0 && text[j] === '\\'; j--) backslashes++;
  return backslashes % 2 === 1;
}

/** A version-7 UUID (time-ordered, as Codex's own thread ids) from a time and 10 random bytes. */
export function uuidV7(nowMs: number, random: Uint8Array): string {
  const b = new Uint8Array(16);
  let t = Math.floor(nowMs);
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  for (let i = 6; i < 16; i++) b[i] = random[i - 6] ?? 0;
  b[6] = 0x70 | ((b[6] as number) & 0x0f);
  b[8] = 0x80 | ((b[8] as number) & 0x3f);
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
