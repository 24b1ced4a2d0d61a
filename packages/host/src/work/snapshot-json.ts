/**
 * A live session's window as JSON in UTF-8, made again after every append without writing again what
 * did not change. Most of a long session's window as text is its context series (`turns`: one point
 * per response, 3.2 MB of the 3.3 MB at 100 MB of Codex rollout, 10,540 points), and an append adds a
 * point or two at its end: the rest are the points the last window had. The series is written in
 * runs of points; a run whose points are equal, field by field, to the ones it was written from is
 * reused as bytes. The bytes are those of `JSON.stringify` of the whole value, to the last one
 * (snapshot-json.test.ts); anything else is written by `JSON.stringify`.
 */

/** Points per run: small enough that a changed run is cheap to write again, big enough that runs are few. */
const RUN = 256;

interface Run {
  points: readonly unknown[];
  bytes: Uint8Array;
}

const encoder = new TextEncoder();
const COMMA = encoder.encode(',');

export class SnapshotJson {
  private runs: Run[] = [];

  constructor(private readonly run = RUN) {}

  /** `JSON.stringify(value)` as UTF-8, its `turns` list from the runs kept where they still hold. */
  encode(value: object): Uint8Array {
    const turns = (value as { turns?: unknown }).turns;
    if (!Array.isArray(turns) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return encoder.encode(JSON.stringify(value));
    const parts: Uint8Array[] = [];
    let text = '{';
    let first = true;
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      // What JSON.stringify leaves out of an object.
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (key !== 'turns') {
        text += JSON.stringify(v);
        continue;
      }
      parts.push(encoder.encode(`${text}[`));
      text = ']';
      this.turns(turns, parts);
    }
    parts.push(encoder.encode(`${text}}`));
    return concat(parts);
  }

  private turns(points: readonly unknown[], parts: Uint8Array[]): void {
    const runs: Run[] = [];
    for (let at = 0, n = 0; at < points.length; at += this.run, n++) {
      const slice = points.slice(at, at + this.run);
      const kept = this.runs[n];
      const run = kept && sameList(kept.points, slice) ? kept : { points: slice, bytes: encoder.encode(JSON.stringify(slice).slice(1, -1)) };
      if (n > 0) parts.push(COMMA);
      parts.push(run.bytes);
      runs.push(run);
    }
    this.runs = runs;
  }
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameFlat(a[i], b[i], 1)) return false;
  return true;
}

/**
 * Equal as JSON for a point: the same keys in the same order, each value the same primitive, or (one
 * level down: a point's usage) an object of primitives equal the same way. Anything deeper is never
 * taken as equal, so it is written again.
 */
function sameFlat(a: unknown, b: unknown, depth: number): boolean {
  if (a === b && (typeof a !== 'object' || a === null)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth < 0) return false;
  if (Array.isArray(a) || Array.isArray(b) || typeof (a as { toJSON?: unknown }).toJSON === 'function' || typeof (b as { toJSON?: unknown }).toJSON === 'function') return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i]) return false;
    if (!sameFlat((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth - 1)) return false;
  }
  return true;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
