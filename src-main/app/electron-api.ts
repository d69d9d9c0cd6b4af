/**
 * The part of Electron the desktop shell uses, as a type of its own: desktop-app.ts is written against it rather than
 * the `electron` module, so the whole main process runs under plain Node in the tests with Electron replaced at this
 * one boundary (test/helpers/fake-electron.ts; the binary cannot run on the development machines). main.ts hands in
 * the real module, and the compiler checks there that Electron's API has this shape.
 */
import type { ClipboardLike } from './hotkey/clipboard-paste-insertion.js';
import type { SafeStorageLike } from './safe-storage-cipher.js';
import type { UtilityProcessApi } from './utility-process-launcher.js';
import type { CommandLineLike, DesktopCapturerLike, DisplayMediaSessionLike } from './system-audio-capture.js';

/** Something Electron lets a listener cancel (`before-quit`, `will-navigate`, `close`, …). */
export interface Cancellable {
  preventDefault(): void;
}

export interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
}

export interface IpcInvokeEvent {
  readonly senderFrame: FrameLike | null;
}

export interface IpcSendEvent extends IpcInvokeEvent {
  returnValue: unknown;
  /** `icon`: the path of the image shown under the pointer. */
  readonly sender: { startDrag(item: { file: string; icon: string }): void };
}

export interface PermissionDetails {
  mediaType?: string;
  mediaTypes?: string[];
  securityOrigin?: string;
  requestingUrl?: string;
}

export interface SessionLike extends DisplayMediaSessionLike {
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string, requestingOrigin: string, details: { mediaType?: string }) => boolean): void;
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: PermissionDetails) => void): void;
}

export interface WebContentsLike {
  readonly session: SessionLike;
  send(channel: string, payload: unknown): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: Cancellable, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: Cancellable) => void): unknown;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  /** Shows the window without taking the focus (the dictation indicator: the focused app keeps it). */
  showInactive(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isVisible(): boolean;
  isFocused(): boolean;
  isDestroyed(): boolean;
  /** Taskbar / dock progress: 0..1, or -1 to remove it. */
  setProgressBar(progress: number): void;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'close', listener: (event: Cancellable) => void): unknown;
  on(event: 'show' | 'focus', listener: () => void): unknown;
}

export interface BrowserWindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  title: string;
  show: boolean;
  /** The dictation indicator: a small frameless pill above every window that never takes the focus. */
  frame?: boolean;
  alwaysOnTop?: boolean;
  focusable?: boolean;
  skipTaskbar?: boolean;
  resizable?: boolean;
  webPreferences: {
    preload?: string;
    contextIsolation: boolean;
    sandbox: boolean;
    nodeIntegration: boolean;
    webSecurity: boolean;
    spellcheck: boolean;
    disableBlinkFeatures: string;
    devTools: boolean;
  };
}

export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  destroy(): void;
}

export interface MenuItemOptions {
  label?: string;
  type?: 'separator';
  enabled?: boolean;
  click?: () => void;
}

export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

/**
 * `Window` is the type the BrowserWindow constructor makes (Electron's BrowserWindow in main.ts, the fake's in the
 * tests): the dialogs take that same type back.
 */
export interface ElectronApi<Window extends BrowserWindowLike = BrowserWindowLike> {
  app: {
    readonly isPackaged: boolean;
    /** Chromium's switches: set before the app is ready (system-audio-capture.ts). */
    readonly commandLine: CommandLineLike;
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<unknown>;
    quit(): void;
    exit(exitCode?: number): void;
    getAppPath(): string;
    /** The OS's recent documents (Windows jump list, macOS Dock and menu, some Linux desktops). */
    addRecentDocument(path: string): void;
    /** The badge on the dock icon (macOS) or launcher (Unity); false where there is none. */
    setBadgeCount(count?: number): boolean;
    on(event: 'second-instance' | 'window-all-closed', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: Cancellable) => void): unknown;
  };
  BrowserWindow: new (options: BrowserWindowOptions) => Window;
  /** The screens whose sound a meeting capture records on Windows and macOS (system-audio-capture.ts). */
  desktopCapturer: DesktopCapturerLike;
  dialog: {
    showErrorBox(title: string, content: string): void;
    showOpenDialog(window: Window, options: { properties: ('openFile' | 'openDirectory' | 'multiSelections')[]; filters?: { name: string; extensions: string[] }[] }): Promise<{ canceled: boolean; filePaths: string[] }>;
  };
  ipcMain: {
    handle(channel: string, listener: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void;
    on(channel: string, listener: (event: IpcSendEvent, ...args: unknown[]) => void): unknown;
  };
  Menu: { buildFromTemplate(template: MenuItemOptions[]): unknown };
  Notification: (new (options: { title: string; body: string }) => NotificationLike) & { isSupported(): boolean };
  protocol: {
    registerSchemesAsPrivileged(schemes: { scheme: string; privileges: { standard: boolean; secure: boolean; supportFetchAPI: boolean; corsEnabled: boolean } }[]): void;
    handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
  };
  safeStorage: SafeStorageLike;
  /** Dictate anywhere on macOS and Windows: the text is pasted through the clipboard, which is given back. */
  clipboard: ClipboardLike;
  /** macOS: whether the app may send keys to other apps; `prompt` asks the person (System Settings → Accessibility). */
  systemPreferences: { isTrustedAccessibilityClient?(prompt: boolean): boolean };
  shell: { openExternal(url: string): Promise<void>; openPath(path: string): Promise<string> };
  /** `image`: the path of the tray icon. */
  Tray: new (image: string) => TrayLike;
  utilityProcess: UtilityProcessApi;
}
