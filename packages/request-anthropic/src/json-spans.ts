/**
 * Where values sit in the bytes of a JSON document. A rewrite replaces a few values (tool results,
 * tool inputs) and must leave every other byte as the client sent it, so that the request the
 * provider caches stays the client's own; JSON.parse gives the values, this gives their byte ranges.
 * It scans the UTF-8 bytes directly: strings are skipped with indexOf, never decoded.
 */

/** A value's bytes: `[start, end)` in the document. */
export interface Span {
  start: number;
  end: number;
}

export interface Member {
  key: string;
  value: Span;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at byte ${offset}`);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export class JsonScanner {
  constructor(private readonly buf: Buffer) {}

  get length(): number {
    return this.buf.length;
  }

  /** The first non-space byte at or after `pos`. */
  skipSpace(pos: number): number {
    let p = pos;
    while (isSpace(this.buf[p])) p++;
    return p;
  }

  /** The end of the string that opens at `pos` (just after its closing quote). */
  private stringEnd(pos: number): number {
    let p = pos + 1;
    for (;;) {
      const q = this.buf.indexOf(QUOTE, p);
      if (q < 0) throw new JsonSyntaxError('unterminated string', pos);
      let slashes = 0;
      for (let i = q - 1; i > pos && this.buf[i] === BACKSLASH; i--) slashes++;
      if (slashes % 2 === 0) return q + 1;
      p = q + 1;
    }
  }

  /** The span of the value that starts at the first non-space byte from `pos`. */
  value(pos: number): Span {
    const start = this.skipSpace(pos);
    const c = this.buf[start];
    if (c === QUOTE) return { start, end: this.stringEnd(start) };
    if (c === 0x7b || c === 0x5b) return { start, end: this.containerEnd(start) };
    let p = start;
    while (p < this.buf.length) {
      const b = this.buf[p];
      if (b === 0x2c || b === 0x7d || b === 0x5d || isSpace(b)) break;
      p++;
    }
    if (p === start) throw new JsonSyntaxError('a value was expected', start);
    return { start, end: p };
  }

  /** The end of the object or array opening at `pos`, skipping strings whole. */
  private containerEnd(pos: number): number {
    let depth = 0;
    let p = pos;
    while (p < this.buf.length) {
      const c = this.buf[p];
      if (c === QUOTE) {
        p = this.stringEnd(p);
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return p + 1;
      }
      p++;
    }
    throw new JsonSyntaxError('unterminated object or array', pos);
  }

  /** A key's text: plain ASCII keys (nearly all) are read directly, others decoded as JSON. */
  private key(start: number, end: number): string {
    for (let i = start + 1; i < end - 1; i++) {
      const c = this.buf[i] as number;
      if (c === BACKSLASH || c >= 0x80) return JSON.parse(this.buf.toString('utf8', start, end)) as string;
    }
    return this.buf.toString('latin1', start + 1, end - 1);
  }

  /** The members of the object at `span`, keys decoded, values as spans. */
  members(span: Span): Member[] {
    if (this.buf[span.start] !== 0x7b) throw new JsonSyntaxError('an object was expected', span.start);
    const out: Member[] = [];
    let p = this.skipSpace(span.start + 1);
    if (this.buf[p] === 0x7d) return out;
    for (;;) {
      if (this.buf[p] !== QUOTE) throw new JsonSyntaxError('a key was expected', p);
      const keyEnd = this.stringEnd(p);
      const key = this.key(p, keyEnd);
      p = this.skipSpace(keyEnd);
      if (this.buf[p] !== 0x3a) throw new JsonSyntaxError('":" was expected', p);
      const value = this.value(p + 1);
      out.push({ key, value });
      p = this.skipSpace(value.end);
      if (this.buf[p] === 0x2c) {
        p = this.skipSpace(p + 1);
        continue;
      }
      if (this.buf[p] === 0x7d) return out;
      throw new JsonSyntaxError('"," or "}" was expected', p);
    }
  }

  /** The elements of the array at `span`, as spans. */
  elements(span: Span): Span[] {
    if (this.buf[span.start] !== 0x5b) throw new JsonSyntaxError('an array was expected', span.start);
    const out: Span[] = [];
    let p = this.skipSpace(span.start + 1);
    if (this.buf[p] === 0x5d) return out;
    for (;;) {
      const v = this.value(p);
      out.push(v);
      p = this.skipSpace(v.end);
      if (this.buf[p] === 0x2c) {
        p = p + 1;
        continue;
      }
      if (this.buf[p] === 0x5d) return out;
      throw new JsonSyntaxError('"," or "]" was expected', p);
    }
  }

  /** The span of the document's one top-level value; anything but white space after it is an error. */
  document(): Span {
    const v = this.value(0);
    const rest = this.skipSpace(v.end);
    if (rest !== this.buf.length) throw new JsonSyntaxError('unexpected bytes after the document', rest);
    return v;
  }

  text(span: Span): string {
    return this.buf.toString('utf8', span.start, span.end);
  }
}
