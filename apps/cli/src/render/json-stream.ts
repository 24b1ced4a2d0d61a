const GAP = '  ';
/** A part of the document with at most this many values is written by JSON.stringify in one go. */
const SMALL_VALUES = 64;

/**
 * Writes `JSON.stringify(value, null, 2)` in pieces, byte for byte the same text, so that a large
 * document (inspect's turns of a long session) is never one string in memory. Objects and arrays are
 * walked; everything else (and anything with a `toJSON`) is stringified where it stands.
 */
export function writeJson(value: unknown, emit: (piece: string) => void): void {
  walk(value, '', emit);
}

function walk(value: unknown, indent: string, emit: (piece: string) => void): void {
  // Small parts (a context point, a segment) in one native call: walking them piece by piece was
  // most of the writing's time, and a small part's text costs no memory to speak of.
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function' || valuesWithin(value, SMALL_VALUES) >= 0) {
    emit(leaf(value, indent));
    return;
  }
  const inner = indent + GAP;
  if (Array.isArray(value)) {
    if (value.length === 0) return emit('[]');
    emit('[\n');
    value.forEach((item, i) => {
      emit(inner);
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') emit('null');
      else walk(item, inner, emit);
      emit(i < value.length - 1 ? ',\n' : '\n');
    });
    emit(`${indent}]`);
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
  if (entries.length === 0) return emit('{}');
  emit('{\n');
  entries.forEach(([k, v], i) => {
    emit(`${inner}${JSON.stringify(k)}: `);
    walk(v, inner, emit);
    emit(i < entries.length - 1 ? ',\n' : '\n');
  });
  emit(`${indent}}`);
}

/** What is left of `budget` after counting the values inside `value` (−1 once there are more). */
function valuesWithin(value: object, budget: number): number {
  let left = budget;
  for (const key in value) {
    if (--left < 0) return -1;
    const v = (value as Record<string, unknown>)[key];
    if (v !== null && typeof v === 'object') {
      left = valuesWithin(v, left);
      if (left < 0) return -1;
    }
  }
  return left;
}

/** A value stringified alone, indented to sit at `indent` (JSON.stringify breaks lines only between tokens). */
function leaf(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return indent && text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text;
}

/** Buffers pieces into chunks of about `size` characters for `write` (fewer, larger writes). */
export function chunked(write: (chunk: string) => void, size = 1 << 16): { emit: (piece: string) => void; flush: () => void } {
  let parts: string[] = [];
  let length = 0;
  const flush = (): void => {
    if (parts.length === 0) return;
    write(parts.join(''));
    parts = [];
    length = 0;
  };
  return {
    emit: (piece) => {
      parts.push(piece);
      length += piece.length;
      if (length >= size) flush();
    },
    flush,
  };
}
