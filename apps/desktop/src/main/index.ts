// Electron main: a router. Window lifecycle, menus, and the typed IPC layer; the engine runs in a
// utility process (engine-process.ts). The window is hardened: context isolation, sandbox, no Node,
// a strict CSP, no navigation, no new windows, no permissions.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserWindow, Menu, app, dialog, ipcMain, session, utilityProcess, type MenuItemConstructorOptions, type UtilityProcess } from 'electron';
import type { AppCommand, Result } from '@glassbox/contract';
import { defaultAgents } from '@glassbox/agents';
import { createRouter } from './router';

const here = import.meta.dirname;
/** The file endings every supported agent's sessions have, without the dot (the open dialog's filter). */
const SESSION_EXTENSIONS = defaultAgents().sessionExtensions().map((e) => e.slice(1));
const RENDERER_HTML = join(here, '../renderer/index.html');
const DEV_URL = process.env['ELECTRON_RENDERER_URL'];
/** better-sqlite3 built for Electron's ABI by `npm start` (scripts/prepare-electron-sqlite.mjs); packaged apps rebuild their own. */
const SQLITE_BINDING = join(here, '../../native/better-sqlite3/build/Release/better_sqlite3.node');

let win: BrowserWindow | null = null;
let engine: UtilityProcess | null = null;
let nextId = 1;
const pending = new Map<number, (r: Result<unknown>) => void>();

app.enableSandbox();

function startEngine(): UtilityProcess {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GLASSBOX_USER_DATA: app.getPath('userData') };
  if (existsSync(SQLITE_BINDING)) env['GLASSBOX_SQLITE_BINDING'] = SQLITE_BINDING;
  // Packaged: the sample sessions travel as extra resources (electron-builder.yml).
  if (app.isPackaged && !env['GLASSBOX_SAMPLES_DIR']) env['GLASSBOX_SAMPLES_DIR'] = join(process.resourcesPath, 'samples');
  const child = utilityProcess.fork(join(here, 'engine.js'), [], { serviceName: 'Glassbox engine', env, stdio: 'inherit' });
  child.on('message', (msg: { id?: number; result?: Result<unknown>; event?: string; payload?: unknown; notice?: string }) => {
    if (msg.id !== undefined && msg.result) {
      pending.get(msg.id)?.(msg.result);
      pending.delete(msg.id);
    } else if (msg.event) {
      win?.webContents.send('glassbox:event', msg.event, msg.payload);
    } else if (msg.notice) {
      console.warn(`glassbox: ${msg.notice}`);
    }
  });
  child.on('exit', (code) => {
    for (const [id, resolve] of pending) {
      resolve({ ok: false, error: { code: 'unavailable', message: `The engine stopped (exit ${code}).`, hint: 'Restart Glassbox.' } });
      pending.delete(id);
    }
    engine = null;
  });
  return child;
}

const route = createRouter({
  rendererUrl: () => (DEV_URL ? DEV_URL : pathToFileURL(RENDERER_HTML).href),
  windowId: () => win?.webContents.id ?? null,
  forward: (channel, args) =>
    new Promise((resolve) => {
      engine ??= startEngine();
      const id = nextId++;
      pending.set(id, resolve);
      engine.postMessage({ id, channel, args });
    }),
});

function send(command: AppCommand): void {
  win?.webContents.send('glassbox:event', 'app:command', command);
}

function createWindow(): void {
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'Glassbox',
    show: false,
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => {
    win = null;
  });
  if (DEV_URL) void win.loadURL(DEV_URL);
  else void win.loadFile(RENDERER_HTML);
}

function buildMenu(): void {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        {
          label: 'Open Transcript…',
          accelerator: 'CmdOrCtrl+O',
          click: async () => {
            if (!win) return;
            const r = await dialog.showOpenDialog(win, { properties: ['openFile'], filters: [{ name: 'Session transcripts', extensions: SESSION_EXTENSIONS }] });
            const path = r.filePaths[0];
            if (!r.canceled && path) send({ command: 'open-path', path });
          },
        },
        { label: 'Fork Cleaned Session…', accelerator: 'CmdOrCtrl+Shift+F', click: () => send({ command: 'fork' }) },
        { label: 'Refresh Sessions', accelerator: 'CmdOrCtrl+R', click: () => send({ command: 'refresh' }) },
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ label: 'Search Sessions', accelerator: 'CmdOrCtrl+F', click: () => send({ command: 'search' }) }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { role: 'togglefullscreen' }, ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }])],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ role: 'about' }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

// Every web contents: no navigation away, no new windows, no webviews.
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', (e) => e.preventDefault());
  contents.on('will-redirect', (e) => e.preventDefault());
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
});

void app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  ipcMain.handle('glassbox:invoke', (event, channel: unknown, args: unknown) =>
    route({ id: event.sender.id, frameUrl: event.senderFrame?.url ?? null, isMainFrame: event.senderFrame === event.sender.mainFrame }, channel, args),
  );
  engine = startEngine();
  buildMenu();
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('before-quit', () => {
  engine?.kill();
});
