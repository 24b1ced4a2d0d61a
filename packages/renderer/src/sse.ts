/** One server-sent event: its name (`event:`) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * An incremental parser of a text/event-stream (the subset the browser-mode server sends: `event:`,
 * `data:` and `:` comments, frames ended by a blank line). Chunks may split a frame anywhere; push
 * each chunk as it arrives and get the frames it completed. Reading the stream through fetch, unlike
 * EventSource, lets every request carry the token header.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    let nl = this.buffer.search(/\r\n|\n|\r/);
    while (nl >= 0) {
      const line = this.buffer.slice(0, nl);
      const width = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (width === 1 && this.buffer[nl] === '\r' && nl === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(nl + width);
      this.line(line, out);
      nl = this.buffer.search(/\r\n|\n|\r/);
    }
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }
}
