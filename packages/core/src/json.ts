/** Reading untyped JSON records safely: what every adapter's parser needs before it knows a shape. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Parses a JSON object, or returns null for anything else (never throws). */
export function parseObject(text: string): JsonObject | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * The values of every `<key>…"` in a line, e.g. `"uuid":"` → the uuids it names, as written (no
 * unescaping): a cheap filter before a line is parsed. In valid JSON an unescaped `"uuid":"` is a key.
 */
export function keyValues(line: string, key: string): string[] {
  const out: string[] = [];
  let at = line.indexOf(key);
  while (at >= 0) {
    const start = at + key.length;
    const end = line.indexOf('"', start);
    if (end < 0) break;
    out.push(line.slice(start, end));
    at = line.indexOf(key, end + 1);
  }
  return out;
}
