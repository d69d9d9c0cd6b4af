/**
 * The Electron main process, written against the ElectronApi boundary (electron-api.ts) so it runs under plain Node
 * in the tests (test/integration/app/desktop-app.test.ts): one instance (a second launch focuses the first), the
 * in-process service on 127.0.0.1:0 with the per-install key and its engines in utility processes, the page on
 * app://voxdesk with its CSP, the locked-down window (app-window.ts), the bridge's IPC (bridge-ipc.ts), the work in
 * progress on the tray, the badge and the taskbar and finished work as system notifications (work-status.ts), updates
 * (update-policy.ts), dictate anywhere (hotkey/desktop-hotkey.ts: the global shortcut and its indicator, armed from
 * `<data dir>/hotkey.json`), a running meeting capture shown on the tray (the page shows it too), and a graceful quit:
 * running jobs finish for 5 s or return to the queue, then a downloaded update installs.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BRIDGE_CHANNELS, type OpenWorkEvent, type UpdateBridgeEvent } from '../common/desktop-bridge.js';
import type { JobEngine } from '../jobs/engine/job-service.js';
import type { Service } from '../service/create-service.js';
import { defaultDataDir } from '../service/config.js';
import { APP_ORIGIN, APP_PAGE_URL, APP_SCHEME, resolveAppFile } from './app-protocol.js';
import { createAppWindow, showWindow } from './app-window.js';
import { registerBridgeIpc, type BridgeIpc } from './bridge-ipc.js';
import { enableLoopbackFeatures, SystemAudioGrant } from './system-audio-capture.js';
import { startDesktopService } from './desktop-service.js';
import type { BrowserWindowLike, ElectronApi, MenuItemOptions, TrayLike } from './electron-api.js';
import { ExportDrag } from './export-drag.js';
import { DesktopHotkey } from './hotkey/desktop-hotkey.js';
import { checkHotkeySettings, hotkeyView, loadHotkeySettings, saveHotkeySettings, type HotkeySettings } from './hotkey/hotkey-settings.js';
import { IndicatorWindow } from './hotkey/indicator-window.js';
import { captureTrayLabel } from './tray-status.js';
import { safeStorageCipher } from './safe-storage-cipher.js';
import { UpdatePolicy, type UpdaterLike } from './update-policy.js';
import { utilityProcessLauncher } from './utility-process-launcher.js';
import { contentSecurityPolicy } from './window-security.js';
import { wantsSystemNotice, WorkStatus, type WorkNotice } from './work-status.js';
import type { Log } from '../common/log.js';
import { createLog } from '../common/log.js';
import { textSink } from '../common/log-sinks.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Grace for running jobs at quit before they are requeued. Default 5 s (a quit should feel quick). */
export const QUIT_GRACE_MS = 5_000;
/** How often the tray, badge and taskbar progress are brought up to date. Default 2 s. */
export const WORK_REFRESH_MS = 2_000;

export interface DesktopAppOptions {
  electron: ElectronApi;
  /** electron-updater's autoUpdater (main.ts). */
  updater: UpdaterLike;
  /** Default: the OS's per-user app-data folder ($VOXDESK_DATA_DIR overrides). */
  dataDir?: string;
  /** Diagnostics. Default: stderr. */
  log?: Log;
}

export interface DesktopApp {
  /** Settles once the service runs and the page is loading; rejects when the start failed (the app then exits 1). */
  readonly ready: Promise<void>;
  /** False when another instance runs: this one quits at once. */
  readonly primary: boolean;
  readonly service: Service | null;
  readonly window: BrowserWindowLike | null;
}

export function runDesktopApp(options: DesktopAppOptions): DesktopApp {
  const { electron } = options;
  const { app } = electron;
  const log = options.log ?? createLog(textSink());
  const dataDir = options.dataDir ?? defaultDataDir();
  let service: Service | null = null;
  let window: BrowserWindowLike | null = null;
  let tray: TrayLike | null = null;
  let bridge: BridgeIpc | null = null;
  let exportDrag: ExportDrag | null = null;
  let refreshTimer: NodeJS.Timeout | null = null;
  let quitting = false;
  let hotkey: DesktopHotkey | null = null;
  let indicator: IndicatorWindow | null = null;
  let hotkeySettings: HotkeySettings | null = null;

  const send = (channel: string, payload: unknown): void => {
    if (window && !window.isDestroyed()) window.webContents.send(channel, payload);
  };
  const updates = new UpdatePolicy({ updater: options.updater, packaged: app.isPackaged, log, report: (event: UpdateBridgeEvent) => send(BRIDGE_CHANNELS.updateEvent, event) });

  // Before the app is ready: Chromium's features that let a meeting capture record the computer's sound.
  enableLoopbackFeatures(app.commandLine);
  const systemAudio = new SystemAudioGrant();

  electron.protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);

  const handle: { -readonly [K in keyof DesktopApp]: DesktopApp[K] } = { ready: Promise.resolve(), primary: true, service: null, window: null };
  if (!app.requestSingleInstanceLock()) {
    handle.primary = false;
    app.quit();
    return handle;
  }
  app.on('second-instance', () => showWindow(window));

  async function start(): Promise<void> {
    const started = await startDesktopService({
      dataDir,
      allowedOrigins: [APP_ORIGIN],
      secretCipher: safeStorageCipher(electron.safeStorage),
      processLauncher: utilityProcessLauncher(electron.utilityProcess),
    });
    const svc = started.service;
    service = handle.service = svc;
    serveRenderer(svc.url);
    exportDrag = new ExportDrag(dataDir, { url: svc.url, apiKey: started.apiKey });
    const dragIcon = join(app.getAppPath(), 'resources', 'icon.png');
    bridge = registerBridgeIpc(electron, { serviceUrl: svc.url, apiKey: started.apiKey, dataDir, window: () => window, exportDrag, dragIcon, log, hotkey: { get: hotkeyState, set: changeHotkey }, systemAudio });
    window = handle.window = createAppWindow(electron, {
      preload: join(here, 'preload', 'preload.js'),
      devTools: !app.isPackaged,
      // Closing the window keeps jobs running in the tray; quit from the tray menu.
      hideOnClose: () => !quitting && tray !== null,
      systemAudioArmed: () => systemAudio.armed(),
    });
    systemAudio.install(window.webContents.session, electron.desktopCapturer, log);
    // The person is looking at the app: a job is likely to come, so an engine worker starts and warms now (it exits
    // again after a few idle minutes: workers run on demand so that the app costs little in the tray).
    const engine = svc.jobs as JobEngine;
    window.on('show', () => engine.prewarmWorker());
    window.on('focus', () => engine.prewarmWorker());
    tray = createTray();
    watchWork(svc);
    void window.loadURL(APP_PAGE_URL);
    updates.checkAtStart();
    // Dictate anywhere: armed now from the person's settings (a shortcut that cannot be armed says why in Settings).
    indicator = new IndicatorWindow(electron);
    const shown = indicator;
    hotkey = new DesktopHotkey({
      serviceUrl: svc.url,
      apiKey: started.apiKey,
      clipboard: electron.clipboard,
      trusted: (prompt) => electron.systemPreferences.isTrustedAccessibilityClient?.(prompt) ?? true,
      indicator: (state) => shown.show(state),
      log,
    });
    hotkeySettings = await loadHotkeySettings(dataDir, log);
    // Never in the way of the app's start: what goes wrong is said in Settings and the log.
    const status = await hotkey.apply(hotkeySettings).catch((error: unknown) => ({ problem: error instanceof Error ? error.message : String(error) }));
    if (status.problem) log.info(`dictate anywhere is not armed: ${status.problem}`);
  }

  /** The page's Settings: dictate anywhere's settings and how it stands. */
  async function hotkeyState(): Promise<ReturnType<typeof hotkeyView>> {
    if (!hotkey || !hotkeySettings) throw new Error('the app is starting: try again in a moment');
    return hotkeyView(hotkeySettings, hotkey.status());
  }

  /** A change from the page: checked, kept, and applied at once. */
  async function changeHotkey(change: unknown): Promise<ReturnType<typeof hotkeyView>> {
    if (!hotkey || !hotkeySettings) throw new Error('the app is starting: try again in a moment');
    const next = checkHotkeySettings(change, hotkeySettings);
    await saveHotkeySettings(dataDir, next);
    hotkeySettings = next;
    return hotkeyView(next, await hotkey.apply(next));
  }

  /** app:// serves the built renderer, every response with the CSP that lets the page reach only this service. */
  function serveRenderer(serviceUrl: string): void {
    const csp = contentSecurityPolicy(serviceUrl);
    const rendererDir = join(app.getAppPath(), 'src-renderer', 'dist');
    electron.protocol.handle(APP_SCHEME, async (request) => {
      const file = resolveAppFile(rendererDir, request.url);
      if (!file) return new Response('not found', { status: 404 });
      try {
        const body = await readFile(file.path);
        return new Response(body, { headers: { 'content-type': file.contentType, 'content-security-policy': csp, 'x-content-type-options': 'nosniff' } });
      } catch {
        return new Response('not found', { status: 404 });
      }
    });
  }

  function createTray(): TrayLike | null {
    try {
      return new electron.Tray(join(app.getAppPath(), 'resources', 'tray.png'));
    } catch {
      return null; // Some Linux desktops have no tray; the window then quits the app when closed.
    }
  }

  function trayMenu(label: string, captureId: string | null): unknown {
    const items: MenuItemOptions[] = [
      { label, enabled: false },
      { type: 'separator' },
      ...(captureId ? [{ label: 'Stop recording the meeting', click: () => void stopCapture(captureId) }] : []),
      { label: 'Open Voxdesk', click: () => showWindow(window) },
      { label: 'Quit', click: () => app.quit() },
    ];
    return electron.Menu.buildFromTemplate(items);
  }

  /** The tray's Stop: the capture ends as with its Stop button (the last words are kept, then its job). */
  async function stopCapture(id: string): Promise<void> {
    const running = service?.captures.running();
    if (!running || running.id !== id) return;
    try {
      await running.stop();
    } catch (error) {
      log.info(`the meeting capture could not be stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  function watchWork(svc: Service): void {
    const work = new WorkStatus();
    let shownLabel = '';
    let shownBadge = -1;
    let lastCounts: Awaited<ReturnType<Service['jobs']['queueSummary']>> | null = null;
    const show = (counts: Awaited<ReturnType<Service['jobs']['queueSummary']>>): void => {
      lastCounts = counts;
      const view = work.view(counts);
      // A meeting capture recording this machine is said first, so nothing records unseen.
      const capture = svc.captures.running()?.view() ?? null;
      const label = captureTrayLabel(view.label, capture);
      if (label !== shownLabel) {
        shownLabel = label;
        tray?.setToolTip(label);
        tray?.setContextMenu(trayMenu(label, capture?.id ?? null));
      }
      if (view.badge !== shownBadge) {
        shownBadge = view.badge;
        app.setBadgeCount(view.badge);
      }
      if (window && !window.isDestroyed()) window.setProgressBar(view.progress);
    };
    const refresh = (): void => {
      svc.jobs.queueSummary().then(show, (error: unknown) => log.info(`the tray could not read the queue: ${error instanceof Error ? error.message : String(error)}`));
    };
    const notify = (notice: WorkNotice | null): void => {
      if (!notice || !wantsSystemNotice(window) || !electron.Notification.isSupported()) return;
      const shown = new electron.Notification({ title: notice.title, body: notice.body });
      shown.on('click', () => {
        showWindow(window);
        send(BRIDGE_CHANNELS.openWork, { jobId: notice.jobId, batchId: notice.batchId } satisfies OpenWorkEvent);
      });
      shown.show();
    };
    svc.captures.events.on('changed', () => lastCounts && show(lastCounts));
    svc.jobs.events.on('job-changed', (job) => notify(work.job(job)));
    svc.jobs.events.on('batch-changed', (batch) => notify(work.batch(batch)));
    refresh();
    refreshTimer = setInterval(refresh, WORK_REFRESH_MS);
  }

  app.on('before-quit', (event) => {
    if (quitting || !service) return;
    // Graceful quit: stop accepting, let running jobs finish briefly, requeue the rest, close the database; then a
    // downloaded update installs (no job runs any more).
    event.preventDefault();
    quitting = true;
    if (refreshTimer) clearInterval(refreshTimer);
    const svc = service;
    service = handle.service = null;
    void bridge?.closeLive();
    indicator?.destroy();
    // A dictation still listening ends first and is kept as its job; then the service closes.
    (hotkey?.close() ?? Promise.resolve())
      .catch((error: unknown) => log.info(`dictate anywhere did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`))
      .then(() => svc.close(QUIT_GRACE_MS))
      .catch((error: unknown) => log.info(`the service did not close cleanly: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        exportDrag?.clear();
        tray?.destroy();
        tray = null;
        if (!updates.installIfReady()) app.quit();
      });
  });

  app.on('window-all-closed', () => {
    if (!tray) app.quit();
  });

  handle.ready = app.whenReady().then(start);
  handle.ready.catch((error: unknown) => {
    electron.dialog.showErrorBox('Voxdesk could not start', error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
  return handle;
}
