/**
 * The app's one window, locked down (docs/design.md §6.2, docs/desktop-app.md "Electron security"): context isolation
 * and sandbox on, no Node integration, Auxclick off, DevTools only in development; navigation and redirects away from
 * the app page refused, webviews refused, `window.open` denied (an allow-listed https link goes to the system
 * browser); permission checks and requests answered by permission-policy.ts for the app's own origin.
 */
import { APP_ORIGIN, APP_PAGE_URL } from './app-protocol.js';
import type { BrowserWindowLike, Cancellable, ElectronApi } from './electron-api.js';
import { permissionAllowed } from './permission-policy.js';
import { isAllowedExternalLink, isAppPage } from './window-security.js';

export interface AppWindowOptions {
  /** The compiled preload script. */
  preload: string;
  /** DevTools: only in development (`npm run app`), never in the packaged app. */
  devTools: boolean;
  /** Closing the window: true keeps the app running in the tray (the window is hidden instead). */
  hideOnClose: () => boolean;
  /** Whether a meeting capture armed the screen's sound just now (permission-policy.ts). */
  systemAudioArmed: () => boolean;
}

export function createAppWindow(electron: Pick<ElectronApi, 'BrowserWindow' | 'shell'>, options: AppWindowOptions): BrowserWindowLike {
  const window = new electron.BrowserWindow({
    width: 1180,
    height: 780,
    minWidth: 720,
    minHeight: 520,
    title: 'Voxdesk',
    show: false,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
      // Middle-click would open links in new windows (refused below anyway): the feature is off altogether.
      disableBlinkFeatures: 'Auxclick',
      devTools: options.devTools,
    },
  });
  const contents = window.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalLink(url)) void electron.shell.openExternal(url);
    return { action: 'deny' };
  });
  const stayOnAppPage = (event: Cancellable, url: string): void => {
    if (!isAppPage(url, APP_PAGE_URL)) event.preventDefault();
  };
  contents.on('will-navigate', stayOnAppPage);
  contents.on('will-redirect', stayOnAppPage);
  contents.on('will-attach-webview', (event: Cancellable) => event.preventDefault());
  contents.session.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    permissionAllowed({ permission, requester: requestingOrigin, mediaTypes: details.mediaType ? [details.mediaType] : [] }, APP_ORIGIN, options.systemAudioArmed()),
  );
  contents.session.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const requester = details.securityOrigin ?? details.requestingUrl;
    callback(permissionAllowed({ permission, requester, mediaTypes: details.mediaTypes ?? [] }, APP_ORIGIN, options.systemAudioArmed()));
  });
  window.once('ready-to-show', () => window.show());
  window.on('close', (event) => {
    if (options.hideOnClose()) {
      event.preventDefault();
      window.hide();
    }
  });
  return window;
}

/** Brings the window to the front (a second launch, a tray click, a notification click). */
export function showWindow(window: BrowserWindowLike | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
