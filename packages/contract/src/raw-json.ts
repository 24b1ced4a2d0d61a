/**
 * A value a work thread already serialised as JSON (a big session's window): the host hands it to the
 * transports as it is, so the thread that answers requests never rebuilds it as objects. The HTTP
 * server splices the text into its answer; a transport that hands objects over parses it at the far
 * end (the preload). Anyone else gets results with it parsed (`parseRawJson`).
 */
export interface RawJson {
  readonly rawJson: string;
}

export function rawJson(text: string): RawJson {
  return { rawJson: text };
}

export function isRawJson(value: unknown): value is RawJson {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'rawJson' && typeof (value as RawJson).rawJson === 'string';
}

/** The same value with every RawJson in it parsed (objects without one are returned as they are, not copied). */
export function parseRawJson<T>(value: T): T {
  if (isRawJson(value)) return JSON.parse(value.rawJson) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v: unknown, i) => {
      const p = parseRawJson(v);
      if (p !== v) (out ??= [...value])[i] = p;
    });
    return (out ?? value) as T;
  }
  if (typeof value === 'object' && value !== null) {
    let out: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(value)) {
      const p = parseRawJson(v);
      if (p !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = p;
    }
    return (out ?? value) as T;
  }
  return value;
}

/** `JSON.stringify(value)` with each RawJson's text spliced in where the value it stands for would be. */
export function stringifyWithRawJson(value: unknown): string {
  const raws: string[] = [];
  // A mark no string of the value can be by chance: a control character and a fresh random tag.
  const tag = Math.random().toString(36).slice(2, 10);
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!isRawJson(v)) return v;
    raws.push(v.rawJson);
    return `\u0000raw:${tag}:${raws.length - 1}\u0000`;
  });
  if (raws.length === 0) return text;
  return text.replace(new RegExp(`"\\\\u0000raw:${tag}:(\\d+)\\\\u0000"`, 'g'), (_m, i: string) => raws[Number(i)] as string);
}
