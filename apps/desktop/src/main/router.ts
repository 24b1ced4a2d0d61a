import { fail, isInvokeChannel, validateArgs, type IpcError, type Result } from '@glassbox/contract';

/**
 * The IPC layer of main, without Electron in it (so it can be tested under Node): a request is
 * answered only if it comes from our own window's main frame, on a known channel, with arguments that
 * validate; then it is forwarded to the engine process, and whatever happens the caller gets a Result.
 */
export interface RouterDeps {
  /** The URL our renderer was loaded from (file:// index.html, or the dev server's origin). */
  rendererUrl: () => string | null;
  /** The webContents id of our window, or null while it does not exist. */
  windowId: () => number | null;
  forward: (channel: string, args: unknown) => Promise<Result<unknown>>;
}

export interface Sender {
  id: number;
  /** The URL of the frame that sent the message (senderFrame.url). */
  frameUrl: string | null;
  /** The message came from the top frame, not an iframe. */
  isMainFrame: boolean;
}

export function sameRenderer(frameUrl: string | null, rendererUrl: string | null): boolean {
  if (!frameUrl || !rendererUrl) return false;
  try {
    const a = new URL(frameUrl);
    const b = new URL(rendererUrl);
    if (a.protocol === 'file:') return b.protocol === 'file:' && a.pathname === b.pathname;
    return a.origin === b.origin;
  } catch {
    return false;
  }
}

export function createRouter(deps: RouterDeps) {
  return async function route(sender: Sender, channel: unknown, args: unknown): Promise<Result<unknown>> {
    if (sender.id !== deps.windowId() || !sender.isMainFrame || !sameRenderer(sender.frameUrl, deps.rendererUrl())) {
      return fail('refused', 'This request did not come from the Glassbox window.');
    }
    if (!isInvokeChannel(channel)) return fail('unknown_channel', `unknown channel ${String(channel).slice(0, 60)}`);
    const v = validateArgs(channel, args);
    if ('error' in v) return { ok: false, error: v.error };
    try {
      return await deps.forward(channel, v.args);
    } catch (error) {
      const e: IpcError = { code: 'unavailable', message: `The engine did not answer: ${(error as Error).message}`, hint: 'Restart Glassbox.' };
      return { ok: false, error: e };
    }
  };
}
