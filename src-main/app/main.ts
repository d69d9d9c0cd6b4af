/**
 * Electron main process (kept thin; the logic lives in plain modules beside it): single-instance lock, the
 * in-process service on 127.0.0.1:0 with the per-install key and its engines in utility processes, a locked-down
 * window on app://voxdesk (navigation, redirects, new windows and permissions refused but for the app's own needs;
 * DevTools only in development), the preload bridge's IPC (every sender validated), tray with queue status, a
 * notification per finished batch, and a graceful quit (running jobs return to the queue).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, protocol, safeStorage, shell, Tray, utilityProcess } from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Batch } from '../common/api-types.js';
import { BRIDGE_CHANNELS, type LiveBridgeEvent } from '../common/desktop-bridge.js';
import type { Service } from '../service/create-service.js';
import { defaultDataDir } from '../service/config.js';
import { APP_ORIGIN, APP_PAGE_URL, APP_SCHEME, resolveAppFile } from './app-protocol.js';
import { BatchWatcher } from './batch-watcher.js';
import { startDesktopService } from './desktop-service.js';
import { modelIdArg, speedArg, textArg } from './ipc-validate.js';
import { permissionAllowed } from './permission-policy.js';
import { safeStorageCipher } from './safe-storage-cipher.js';
import { LivePlayback } from './player/live-playback.js';
import { trayLabel } from './tray-status.js';
import { utilityProcessLauncher } from './utility-process-launcher.js';
import { contentSecurityPolicy, isAllowedExternalLink, isAppPage, isTrustedSender } from './window-security.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Grace for running jobs at quit before they are requeued. Default 5 s (a quit should feel quick). */
const QUIT_GRACE_MS = 5_000;
/** Tray refresh interval. Default 2 s. */
const TRAY_REFRESH_MS = 2_000;

let service: Service | null = null;
let window: BrowserWindow | null = null;
let tray: Tray | null = null;
let live: LivePlayback | null = null;
let quitting = false;

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  app.whenReady().then(start).catch((err: unknown) => {
    dialog.showErrorBox('Voxdesk could not start', err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

async function start(): Promise<void> {
  const dataDir = defaultDataDir();
  const started = await startDesktopService({
    dataDir,
    allowedOrigins: [APP_ORIGIN],
    secretCipher: safeStorageCipher(safeStorage),
    processLauncher: utilityProcessLauncher(utilityProcess),
  });
  service = started.service;
  const apiKey = started.apiKey;
  const csp = contentSecurityPolicy(service.url);
  const rendererDir = join(app.getAppPath(), 'src-renderer', 'dist');

  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(rendererDir, request.url);
    if (!file) return new Response('not found', { status: 404 });
    try {
      const body = await readFile(file.path);
      return new Response(body, { headers: { 'content-type': file.contentType, 'content-security-policy': csp, 'x-content-type-options': 'nosniff' } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });

  registerIpc(service, dataDir, apiKey);
  createWindow();
  createTray(service);
  watchBatches(service);
}

function createWindow(): void {
  window = new BrowserWindow({
    width: 1180,
    height: 780,
    minWidth: 720,
    minHeight: 520,
    title: 'Voxdesk',
    show: false,
    webPreferences: {
      preload: join(here, 'preload', 'preload.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
      // Middle-click would open links in new windows (refused below anyway): the feature is off altogether.
      disableBlinkFeatures: 'Auxclick',
      devTools: !app.isPackaged,
    },
  });
  const contents = window.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const stayOnAppPage = (event: { preventDefault(): void }, url: string): void => {
    if (!isAppPage(url, APP_PAGE_URL)) event.preventDefault();
  };
  contents.on('will-navigate', stayOnAppPage);
  contents.on('will-redirect', stayOnAppPage);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    permissionAllowed({ permission, requester: requestingOrigin, mediaTypes: details.mediaType ? [details.mediaType] : [] }, APP_ORIGIN),
  );
  contents.session.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const media = 'mediaTypes' in details ? details : undefined;
    const requester = media?.securityOrigin ?? details.requestingUrl;
    callback(permissionAllowed({ permission, requester, mediaTypes: media?.mediaTypes ?? [] }, APP_ORIGIN));
  });
  window.once('ready-to-show', () => window?.show());
  window.on('close', (event) => {
    // Closing the window keeps jobs running in the tray; quit from the tray menu.
    if (!quitting && tray) {
      event.preventDefault();
      window?.hide();
    }
  });
  void window.loadURL(APP_PAGE_URL);
}

function createTray(svc: Service): void {
  try {
    const icon = nativeImage.createFromPath(join(app.getAppPath(), 'resources', 'tray.png'));
    tray = new Tray(icon);
  } catch {
    tray = null; // Some Linux desktops have no tray; the window then quits the app when closed.
    return;
  }
  const refresh = (): void => {
    const label = trayLabel(svc.jobs.queueSummary());
    tray?.setToolTip(label);
    tray?.setContextMenu(
      Menu.buildFromTemplate([
        { label, enabled: false },
        { type: 'separator' },
        { label: 'Open Voxdesk', click: () => { window?.show(); window?.focus(); } },
        { label: 'Quit', click: () => app.quit() },
      ]),
    );
  };
  refresh();
  const timer = setInterval(refresh, TRAY_REFRESH_MS);
  app.on('before-quit', () => clearInterval(timer));
}

function watchBatches(svc: Service): void {
  const watcher = new BatchWatcher();
  svc.jobs.events.on('batch-changed', (batch: Batch) => {
    for (const notice of watcher.update([batch])) {
      if (!Notification.isSupported()) continue;
      const n = new Notification({ title: notice.title, body: notice.body });
      n.on('click', () => { window?.show(); window?.focus(); });
      n.show();
    }
  });
}

function registerIpc(svc: Service, dataDir: string, apiKey: string): void {
  const guard = <A extends unknown[], R>(handler: (...args: A) => R | Promise<R>) =>
    (event: IpcMainInvokeEvent, ...args: unknown[]): R | Promise<R> => {
      if (!isTrustedSender(event.senderFrame, APP_PAGE_URL)) throw new Error('IPC from an untrusted frame');
      return handler(...(args as A));
    };
  const emit = (event: LiveBridgeEvent): void => window?.webContents.send(BRIDGE_CHANNELS.liveEvent, event);

  ipcMain.on(BRIDGE_CHANNELS.config, (event) => {
    event.returnValue = isTrustedSender(event.senderFrame, APP_PAGE_URL)
      ? { serviceUrl: svc.url, apiKey, dataDir, platform: process.platform }
      : null;
  });
  ipcMain.handle(BRIDGE_CHANNELS.pickFiles, guard(async () => {
    if (!window) return [];
    const result = await dialog.showOpenDialog(window, {
      properties: ['openFile', 'multiSelections'],
      filters: [{ name: 'Audio and video', extensions: ['wav', 'mp3', 'm4a', 'flac', 'ogg', 'opus', 'webm', 'mp4', 'aac'] }],
    });
    return result.canceled ? [] : result.filePaths.map((path) => ({ path, name: path.split(/[\\/]/).pop() ?? path, bytes: 0 }));
  }));
  ipcMain.handle(BRIDGE_CHANNELS.pickFolder, guard(async () => {
    if (!window) return null;
    const result = await dialog.showOpenDialog(window, { properties: ['openDirectory'] });
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }));
  ipcMain.handle(BRIDGE_CHANNELS.openDataDir, guard(async () => {
    await shell.openPath(dataDir);
  }));
  ipcMain.handle(BRIDGE_CHANNELS.liveStart, guard(async (modelId: unknown, speed: unknown) => {
    const id = modelIdArg(modelId);
    const rate = speedArg(speed);
    await live?.close();
    live = null;
    // The live-audio engineer's LivePlayback: the session's PCM16 frames into the naudiodon player.
    const playback = await LivePlayback.open({ serviceUrl: svc.url, apiKey, modelId: id, speed: rate });
    playback.on('event', (event) => {
      emit(event);
      if (event.type === 'closed' && live === playback) live = null;
    });
    live = playback;
    emit({ type: 'session', sampleRate: playback.sampleRate });
    return { sampleRate: playback.sampleRate };
  }));
  ipcMain.handle(BRIDGE_CHANNELS.liveSpeak, guard((text: unknown) => live?.speak(textArg(text))));
  ipcMain.handle(BRIDGE_CHANNELS.liveSpeed, guard((speed: unknown) => live?.setSpeed(speedArg(speed))));
  ipcMain.handle(BRIDGE_CHANNELS.liveStop, guard(() => live?.cancel()));
}

app.on('before-quit', (event) => {
  if (quitting || !service) return;
  // Graceful quit: stop accepting, let running jobs finish briefly, requeue the rest, close the database.
  event.preventDefault();
  quitting = true;
  void live?.close();
  const svc = service;
  service = null;
  svc.close(QUIT_GRACE_MS).finally(() => app.quit());
});

app.on('window-all-closed', () => {
  if (!tray) app.quit();
});

