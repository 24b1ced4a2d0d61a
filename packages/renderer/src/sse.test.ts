import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

// The frames the browser-mode server writes (http-server.ts): a comment on connect, then named events.
const STREAM =
  ': connected index:progress session:changed app:command\n\n' +
  'event: index:progress\ndata: {"phase":"indexing","done":1,"total":3}\n\n' +
  ': keep-alive\n\n' +
  'event: session:changed\ndata: {"path":"/p/a.jsonl","row":null,"reason":"removed"}\n\n';

describe('SseParser', () => {
  it('yields every frame whatever the chunking, skipping comments', () => {
    const whole = new SseParser().push(STREAM);
    expect(whole).toEqual([
      { event: 'index:progress', data: '{"phase":"indexing","done":1,"total":3}' },
      { event: 'session:changed', data: '{"path":"/p/a.jsonl","row":null,"reason":"removed"}' },
    ]);
    for (let size = 1; size <= 17; size++) {
      const p = new SseParser();
      const got = [];
      for (let i = 0; i < STREAM.length; i += size) got.push(...p.push(STREAM.slice(i, i + size)));
      expect(got, `chunks of ${size}`).toEqual(whole);
    }
  });

  it('accepts CRLF line ends split between chunks, and joins multi-line data', () => {
    const p = new SseParser();
    expect(p.push('event: a\r')).toEqual([]);
    expect(p.push('\ndata: 1\r\ndata: 2\r\n\r')).toEqual([]);
    expect(p.push('\n')).toEqual([{ event: 'a', data: '1\n2' }]);
  });
});
