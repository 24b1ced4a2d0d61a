import type { ArgsOf, EventChannel, EventMap, GlassboxApi, InvokeChannel, Result, ResultOf } from '@glassbox/contract';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    glassbox?: GlassboxApi;
  }
}

const TOKEN_KEY = 'glassbox-token';

/** Electron's preload bridge when present, else the browser-mode HTTP transport. */
export function pickTransport(): GlassboxApi {
  return window.glassbox ?? httpTransport();
}

function httpTransport(): GlassboxApi {
  // The token arrives once in the URL; keep it for this tab and take it out of the address bar.
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  const token = sessionStorage.getItem(TOKEN_KEY) ?? '';
  let source: EventSource | null = null;

  return {
    async invoke<C extends InvokeChannel>(channel: C, args: ArgsOf<C>): Promise<Result<ResultOf<C>>> {
      try {
        const res = await fetch(`api/invoke/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-glassbox-token': token },
          body: JSON.stringify(args),
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
      source ??= new EventSource(`api/events?token=${encodeURIComponent(token)}`);
      const handler = (e: MessageEvent<string>) => listener(JSON.parse(e.data) as EventMap[E]);
      source.addEventListener(event, handler as EventListener);
      return () => source?.removeEventListener(event, handler as EventListener);
    },
  };
}
