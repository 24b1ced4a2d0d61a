import type { ArgsOf, EventChannel, EventMap, GlassboxApi, InvokeChannel, Result, ResultOf } from '@glassbox/contract';
import { SseParser } from './sse';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    glassbox?: GlassboxApi;
  }
}

/** The per-tab copy of the token, so a reload keeps working (Web Storage is per origin, port included). */
const TOKEN_KEY = 'glassbox-token';
const TOKEN_HEADER = 'x-glassbox-token';
const RETRY_MS = [500, 1000, 2000, 5000];

/** Electron's preload bridge when present, else the browser-mode HTTP transport. */
export function pickTransport(): GlassboxApi {
  return window.glassbox ?? httpTransport();
}

/**
 * The token arrives once in the URL `glassbox ui` prints. It is taken out of the address bar at once
 * and kept in this page's memory (and this tab's sessionStorage, for reloads); it is sent only as a
 * header on our own requests, never as a cookie, which the browser would send to every local port.
 */
function takeToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    try {
      sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // Storage disabled: the token lives in memory only, and a reload needs the printed URL again.
    }
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

function httpTransport(): GlassboxApi {
  const token = takeToken();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let streaming = false;

  /** Reads /api/events with fetch (so the token travels as a header) and reconnects when it drops. */
  const stream = async (): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch('api/events', { headers: { [TOKEN_HEADER]: token }, cache: 'no-store' });
        // Refused: the token is wrong and will stay wrong; invoke() tells the person what to do.
        if (res.status === 403) return;
        if (res.ok && res.body) {
          attempt = 0;
          const parser = new SseParser();
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            for (const frame of parser.push(value)) dispatch(frame.event, frame.data);
          }
        }
      } catch {
        // The server went away (restarted, or the machine slept): try again below.
      }
      await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
    }
  };

  const dispatch = (event: string, data: string): void => {
    const set = listeners.get(event);
    if (!set || set.size === 0) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    for (const l of set) l(payload);
  };

  return {
    async invoke<C extends InvokeChannel>(channel: C, args: ArgsOf<C>): Promise<Result<ResultOf<C>>> {
      try {
        const res = await fetch(`api/invoke/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
          body: JSON.stringify(args),
          cache: 'no-store',
        });
        if (res.status === 403) {
          return { ok: false, error: { code: 'refused', message: 'This page is not authorised.', hint: 'Open the address `glassbox ui` printed (it carries a token).' } };
        }
        return (await res.json()) as Result<ResultOf<C>>;
      } catch {
        return { ok: false, error: { code: 'unavailable', message: 'The Glassbox server is not answering.', hint: 'Is `glassbox ui` still running? Start it again and open the address it prints.' } };
      }
    },
    on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const l = listener as (payload: unknown) => void;
      set.add(l);
      if (!streaming) {
        streaming = true;
        void stream();
      }
      return () => set.delete(l);
    },
  };
}
