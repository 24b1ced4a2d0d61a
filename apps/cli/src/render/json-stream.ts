const GAP = '  ';

/**
 * Writes `JSON.stringify(value, null, 2)` in pieces, byte for byte the same text, so that a large
 * document (inspect's turns of a long session) is never one string in memory. Objects and arrays are
 * walked; everything else (and anything with a `toJSON`) is stringified where it stands.
 */
export function writeJson(value: unknown, emit: (piece: string) => void): void {
  walk(value, '', emit);
}

function walk(value: unknown, indent: string, emit: (piece: string) => void): void {
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
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
