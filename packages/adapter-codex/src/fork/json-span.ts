/**
 * Finds where a value sits in a JSON text, without re-serialising anything: Codex writes its records
 * with serde_json, whose number and escape forms JSON.stringify does not reproduce (`9.0` becomes
 * `9`), so a fork must splice the one value it changes and leave every other byte as it was.
 */
export function valueSpan(text: string, path: readonly string[]): { start: number; end: number } | null {
  let i = skipWs(text, 0);
  for (const key of path) {
    if (text[i] !== '{') return null;
    i = skipWs(text, i + 1);
    let found = false;
    while (text[i] !== '}') {
      const k = stringEnd(text, i);
      if (k < 0) return null;
      const name = JSON.parse(text.slice(i, k)) as string;
      i = skipWs(text, k);
      if (text[i] !== ':') return null;
      i = skipWs(text, i + 1);
      if (name === key) {
        found = true;
        break;
      }
      const end = valueEnd(text, i);
      if (end < 0) return null;
      i = skipWs(text, end);
      if (text[i] === ',') i = skipWs(text, i + 1);
    }
    if (!found) return null;
  }
  const end = valueEnd(text, i);
  return end < 0 ? null : { start: i, end };
}

function skipWs(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** The index just past the string starting at `i` (which must be a quote), or -1. */
function stringEnd(text: string, i: number): number {
  if (text[i] !== '"') return -1;
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
  }
  return -1;
}

/** The index just past the value starting at `i`, or -1. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') {
        j = stringEnd(text, j) - 1;
        if (j < 0) return -1;
      } else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !',}] \t\r\n'.includes(text[j] as string)) j++;
  return j > i ? j : -1;
}
