/**
 * A value a work thread already serialised as JSON (a big session's window): the host hands it to the
 * transports as it is, so the thread that answers requests never rebuilds it as objects. A work thread
 * gives it as UTF-8 bytes, so that thread never encodes or copies it as text either: the HTTP server
 * writes the bytes between the pieces of the answer around them (`rawJsonPieces`); a transport that
 * hands objects over (the Electron engine to the window) copies the bytes, and they are parsed at the
 * far end (the preload). Anyone else gets results with it parsed (`parseRawJson`).
 */
export interface RawJson {
  readonly rawJson: string | Uint8Array;
}

export function rawJson(text: string | Uint8Array): RawJson {
  return { rawJson: text };
}

export function isRawJson(value: unknown): value is RawJson {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, 'rawJson')) return false;
  const raw = (value as RawJson).rawJson;
  return (typeof raw === 'string' || raw instanceof Uint8Array) && Object.keys(value).length === 1;
}

/** A raw value's text (UTF-8 bytes decoded). */
function textOf(raw: string | Uint8Array): string {
  return typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
}

/**
 * The same value with each part `swap` replaces (a RawJson, in practice) swapped, copying only the
 * objects and arrays on the way to one; everything else is returned as it is, not copied.
 */
function mapRaw(value: unknown, swap: (raw: RawJson) => unknown): unknown {
  if (isRawJson(value)) return swap(value);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v !== 'object' || v === null) continue;
      const p = mapRaw(v, swap);
      if (p !== v) (out ??= [...value])[i] = p;
    }
    return out ?? value;
  }
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    let out: Record<string, unknown> | null = null;
    for (const k in value) {
      const v = (value as Record<string, unknown>)[k];
      if (typeof v !== 'object' || v === null) continue;
      const p = mapRaw(v, swap);
      if (p !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = p;
    }
    return out ?? value;
  }
  return value;
}

/** The same value with every RawJson in it parsed (objects without one are returned as they are, not copied). */
export function parseRawJson<T>(value: T): T {
  return mapRaw(value, (raw) => JSON.parse(textOf(raw.rawJson))) as T;
}

/**
 * `JSON.stringify(value)` in pieces: the text around each RawJson, and the RawJson's own text or bytes
 * where the value it stands for would be. Written one after the other they are that JSON; nothing is
 * copied or encoded for the raw parts.
 */
export function rawJsonPieces(value: unknown): (string | Uint8Array)[] {
  const raws: (string | Uint8Array)[] = [];
  // A mark no string of the value can be by chance: a control character and a fresh random tag.
  const tag = Math.random().toString(36).slice(2, 10);
  const text = JSON.stringify(
    mapRaw(value, (raw) => {
      raws.push(raw.rawJson);
      return `\u0000raw:${tag}:${raws.length - 1}\u0000`;
    }),
  );
  if (raws.length === 0) return [text];
  const pieces: (string | Uint8Array)[] = [];
  const mark = new RegExp(`"\\\\u0000raw:${tag}:(\\d+)\\\\u0000"`, 'g');
  let from = 0;
  for (let m = mark.exec(text); m !== null; m = mark.exec(text)) {
    pieces.push(text.slice(from, m.index), raws[Number(m[1])] as string | Uint8Array);
    from = m.index + m[0].length;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** `JSON.stringify(value)` with each RawJson's text spliced in where the value it stands for would be. */
export function stringifyWithRawJson(value: unknown): string {
  return rawJsonPieces(value)
    .map((p) => textOf(p))
    .join('');
}
