/**
 * Electron replaced at its boundary (src-main/app/electron-api.ts) for running the main process under Node: the
 * Electron binary cannot run on the development machines. Everything behind the boundary is real — the service, its
 * SQLite file, HTTP on loopback, engine workers as real child processes (fake-utility-process.ts gives them
 * Electron's `parentPort`). The stand-ins behave as Electron documents: `app.quit()` emits a cancellable
 * `before-quit` and quits only when no listener prevented it; `whenReady()` resolves when the test says the app is
 * ready; IPC reaches the registered handlers with a sender frame the test chooses; a window's `close` is cancellable;
 * what the shell asks of the OS (badge, recent documents, notifications, tray, drag) is recorded.
 */
import { EventEmitter } from 'node:events';
import type {
  BrowserWindowLike,
  BrowserWindowOptions,
  Cancellable,
  ElectronApi,
  FrameLike,
  IpcInvokeEvent,
  IpcSendEvent,
  MenuItemOptions,
  NotificationLike,
  PermissionDetails,
  TrayLike,
} from '../../src-main/app/electron-api.js';
import type { SafeStorageLike } from '../../src-main/app/safe-storage-cipher.js';
import type { CommandLineLike, DisplayMediaRequestLike, DisplayMediaStreamsLike } from '../../src-main/app/system-audio-capture.js';
import type { UpdaterLike } from '../../src-main/app/update-policy.js';
import { fakeUtilityProcess, type FakeUtilityProcess } from './fake-utility-process.js';

class CancellableEvent implements Cancellable {
  prevented = false;
  preventDefault(): void {
    this.prevented = true;
  }
}

export class FakeWebContents extends EventEmitter {
  readonly sent: { channel: string; payload: unknown }[] = [];
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  checkHandler: ((wc: unknown, permission: string, origin: string, details: { mediaType?: string }) => boolean) | null = null;
  requestHandler: ((wc: unknown, permission: string, callback: (granted: boolean) => void, details: PermissionDetails) => void) | null = null;
  /** The getDisplayMedia handler (system-audio-capture.ts). */
  displayMediaHandler: ((request: DisplayMediaRequestLike, callback: (streams: DisplayMediaStreamsLike) => void) => void) | null = null;
  readonly session = {
    setPermissionCheckHandler: (handler: FakeWebContents['checkHandler']) => void (this.checkHandler = handler),
    setPermissionRequestHandler: (handler: FakeWebContents['requestHandler']) => void (this.requestHandler = handler),
    setDisplayMediaRequestHandler: (handler: FakeWebContents['displayMediaHandler']) => void (this.displayMediaHandler = handler),
  };
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Emits a cancellable navigation-like event; true when the shell let it happen. */
  attempt(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url = ''): boolean {
    const e = new CancellableEvent();
    this.emit(event, e, url);
    return !e.prevented;
  }
}

export class FakeWindow extends EventEmitter implements BrowserWindowLike {
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  readonly progress: number[] = [];
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  constructor(readonly options: BrowserWindowOptions) {
    super();
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    // The page is drawn: Electron says so once.
    setImmediate(() => this.emit('ready-to-show'));
  }
  show(): void {
    const was = this.visible;
    this.visible = true;
    if (!was) this.emit('show');
  }
  showInactive(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  focus(): void {
    const was = this.focused;
    this.focused = true;
    if (!was) this.emit('focus');
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setProgressBar(progress: number): void {
    this.progress.push(progress);
  }
  /** The person closes the window: true when it closed (destroyed), false when the shell kept it (hidden). */
  close(): boolean {
    const e = new CancellableEvent();
    this.emit('close', e);
    if (e.prevented) return false;
    this.destroyed = true;
    this.visible = false;
    return true;
  }
}

export class FakeTray implements TrayLike {
  tooltip = '';
  menu: MenuItemOptions[] = [];
  destroyed = false;
  constructor(readonly image: string) {}
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: unknown): void {
    this.menu = menu as MenuItemOptions[];
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export class FakeNotification extends EventEmitter implements NotificationLike {
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show(): void {
    this.shown = true;
  }
  click(): void {
    this.emit('click');
  }
}

/** The frame of the app's own page, and others the shell must refuse. */
export const APP_FRAME: FrameLike = { url: 'app://voxdesk/index.html', parent: null };
export const IFRAME: FrameLike = { url: 'app://voxdesk/index.html', parent: APP_FRAME };
export const FOREIGN_FRAME: FrameLike = { url: 'https://example.com/', parent: null };

export interface FakeElectron extends ElectronApi<FakeWindow> {
  /** Resolves whenReady(). */
  markReady(): void;
  /** The answer requestSingleInstanceLock() gives (another instance holds the lock when false). Default true. */
  singleInstance: boolean;
  appPath: string;
  packaged: boolean;
  readonly windows: FakeWindow[];
  readonly trays: FakeTray[];
  readonly notifications: FakeNotification[];
  readonly recentDocuments: string[];
  readonly badges: number[];
  readonly errorBoxes: { title: string; content: string }[];
  /** Exit codes given to app.exit(). */
  readonly exits: number[];
  /** Set once the app really quit (no before-quit listener prevented it). */
  quitted: boolean;
  readonly protocols: Map<string, (request: Request) => Response | Promise<Response>>;
  readonly utility: FakeUtilityProcess;
  /** What the clipboard holds (text only: macOS and Windows insertion are not run here). */
  clipboardText: string;
  /** Chromium's switches as the app set them (app.commandLine). */
  readonly commandLine: FakeCommandLine;
  /** The screens desktopCapturer lists. */
  screens: { id: string; name: string }[];
  emitApp(event: 'second-instance' | 'window-all-closed'): void;
  /** ipcRenderer.invoke from `frame`. */
  invoke(channel: string, frame: FrameLike, ...args: unknown[]): Promise<unknown>;
  /** ipcRenderer.sendSync from `frame`: the returnValue. */
  sendSync(channel: string, frame: FrameLike, ...args: unknown[]): unknown;
  /** ipcRenderer.send from `frame`; `drags` collects what the sender was asked to drag. */
  send(channel: string, frame: FrameLike, drags: { file: string; icon: string }[], ...args: unknown[]): void;
}

/** app.commandLine: switches by name. */
export class FakeCommandLine implements CommandLineLike {
  readonly switches = new Map<string, string>();
  appendSwitch(name: string, value = ''): void {
    this.switches.set(name, value);
  }
  getSwitchValue(name: string): string {
    return this.switches.get(name) ?? '';
  }
  hasSwitch(name: string): boolean {
    return this.switches.has(name);
  }
  removeSwitch(name: string): void {
    this.switches.delete(name);
  }
}

export function fakeElectron(options: { appPath: string; safeStorage?: SafeStorageLike }): FakeElectron {
  const appEvents = new EventEmitter();
  let ready!: () => void;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  const handlers = new Map<string, (event: IpcInvokeEvent, ...args: unknown[]) => unknown>();
  const listeners = new Map<string, (event: IpcSendEvent, ...args: unknown[]) => void>();
  const windows: FakeWindow[] = [];
  const trays: FakeTray[] = [];
  const notifications: FakeNotification[] = [];

  const fake: FakeElectron = {
    markReady: () => ready(),
    singleInstance: true,
    appPath: options.appPath,
    packaged: false,
    windows,
    trays,
    notifications,
    recentDocuments: [],
    badges: [],
    errorBoxes: [],
    exits: [],
    quitted: false,
    protocols: new Map(),
    utility: fakeUtilityProcess(),
    commandLine: new FakeCommandLine(),
    screens: [{ id: 'screen:0:0', name: 'Entire screen' }],
    desktopCapturer: { getSources: async () => fake.screens },
    app: {
      get isPackaged() {
        return fake.packaged;
      },
      get commandLine() {
        return fake.commandLine;
      },
      requestSingleInstanceLock: () => fake.singleInstance,
      whenReady: () => whenReady,
      quit() {
        const event = new CancellableEvent();
        appEvents.emit('before-quit', event);
        if (!event.prevented) fake.quitted = true;
      },
      exit: (code = 0) => void fake.exits.push(code),
      getAppPath: () => fake.appPath,
      addRecentDocument: (path) => void fake.recentDocuments.push(path),
      setBadgeCount(count = 0) {
        fake.badges.push(count);
        return true;
      },
      on(event: string, listener: (...args: never[]) => void) {
        appEvents.on(event, listener as (...args: unknown[]) => void);
        return fake.app;
      },
    },
    BrowserWindow: class extends FakeWindow {
      constructor(windowOptions: BrowserWindowOptions) {
        super(windowOptions);
        windows.push(this);
      }
    },
    dialog: {
      showErrorBox: (title, content) => void fake.errorBoxes.push({ title, content }),
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
    },
    ipcMain: {
      handle: (channel, listener) => void handlers.set(channel, listener),
      on(channel, listener) {
        listeners.set(channel, listener);
        return fake.ipcMain;
      },
    },
    Menu: { buildFromTemplate: (template) => template },
    Notification: Object.assign(
      class extends FakeNotification {
        constructor(notificationOptions: { title: string; body: string }) {
          super(notificationOptions);
          notifications.push(this);
        }
      },
      { isSupported: () => true },
    ),
    protocol: {
      registerSchemesAsPrivileged: () => {},
      handle: (scheme, handler) => void fake.protocols.set(scheme, handler),
    },
    safeStorage: options.safeStorage ?? { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    shell: { openExternal: async () => {}, openPath: async () => '' },
    clipboardText: '',
    clipboard: {
      readText: () => fake.clipboardText,
      readHTML: () => '',
      readImage: () => ({ isEmpty: () => true }),
      write: (data) => void (fake.clipboardText = data.text ?? ''),
      writeText: (text) => void (fake.clipboardText = text),
      clear: () => void (fake.clipboardText = ''),
    },
    systemPreferences: {},
    Tray: class extends FakeTray {
      constructor(image: string) {
        super(image);
        trays.push(this);
      }
    },
    get utilityProcess() {
      return fake.utility;
    },
    emitApp: (event) => void appEvents.emit(event),
    async invoke(channel, frame, ...args) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`no handler for ${channel}`);
      return handler({ senderFrame: frame }, ...args);
    },
    sendSync(channel, frame, ...args) {
      const event = { senderFrame: frame, returnValue: undefined as unknown, sender: { startDrag: () => {} } };
      listeners.get(channel)?.(event, ...args);
      return event.returnValue;
    },
    send(channel, frame, drags, ...args) {
      const event = { senderFrame: frame, returnValue: undefined as unknown, sender: { startDrag: (item: { file: string; icon: string }) => void drags.push(item) } };
      listeners.get(channel)?.(event, ...args);
    },
  };
  return fake;
}

/** electron-updater's autoUpdater replaced at its boundary: the test says when an update was found and downloaded. */
export class FakeUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  checks = 0;
  installs: { silent: boolean | undefined; runAfter: boolean | undefined }[] = [];
  constructor(private readonly onInstall: () => void = () => {}) {
    super();
  }
  async checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    return null;
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push({ silent: isSilent, runAfter: isForceRunAfter });
    this.onInstall();
  }
}
