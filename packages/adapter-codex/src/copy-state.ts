/**
 * A deep copy of a parser's state that a parse can finish while the original reads on (a followed
 * session's snapshot): objects keep their classes (the copy's methods are the original's), what refers
 * to what inside it still does (each object is copied once), and functions are shared — the parser's
 * deferred work closes over the records it was made from, which nothing changes after the parse.
 */
export function copyState<T>(value: T, settled: ReadonlySet<readonly unknown[]> = new Set()): T {
  return copy(value, new Map(), settled) as T;
}

/**
 * `settled`: lists whose entries nothing changes once they are in them (only more are pushed): the
 * list is copied, its entries shared. A long rollout's let-go usage and its requests are one entry per
 * request (10,540 at 100 MB): copying each on every append was most of the copy.
 */
function copy(value: unknown, seen: Map<object, unknown>, settled: ReadonlySet<readonly unknown[]>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value) && settled.has(value)) {
    const out = value.slice();
    seen.set(value, out);
    return out;
  }
  if (value instanceof Map) {
    const out = new Map();
    seen.set(value, out);
    for (const [k, v] of value) out.set(copy(k, seen, settled), copy(v, seen, settled));
    return out;
  }
  if (value instanceof Set) {
    const out = new Set();
    seen.set(value, out);
    for (const v of value) out.add(copy(v, seen, settled));
    return out;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], seen, settled);
    return out;
  }
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen, settled);
  return out;
}
