// The preload exposes exactly the contract's API as `window.glassbox`, and nothing else: invoke on a
// known channel, subscribe to a known event, and the path of a dropped file.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { isEventChannel, isInvokeChannel, parseRawJson, type GlassboxApi } from '@glassbox/contract';

const api: GlassboxApi = {
  invoke(channel, args) {
    if (!isInvokeChannel(channel)) return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: `unknown channel ${String(channel)}` } });
    // A big value (a session's window) crosses as JSON text (RawJson): parsed here, on the window's side.
    return ipcRenderer.invoke('glassbox:invoke', channel, args).then((r: unknown) => parseRawJson(r) as never);
  },
  on(event, listener) {
    if (!isEventChannel(event)) return () => {};
    const handler = (_e: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload as never);
    };
    ipcRenderer.on('glassbox:event', handler);
    return () => ipcRenderer.removeListener('glassbox:event', handler);
  },
  pathForFile(file) {
    return webUtils.getPathForFile(file) || null;
  },
};

contextBridge.exposeInMainWorld('glassbox', api);
