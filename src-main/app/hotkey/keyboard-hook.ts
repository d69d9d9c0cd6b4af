/**
 * The global keyboard hook hold-to-talk needs (docs/capture.md): Electron's globalShortcut reports a press but never
 * the release, so the shortcut is watched with uiohook-napi (libuiohook, prebuilt for Windows, macOS and Linux):
 * - Linux: X11 only (XRecord and XTest; libXtst is on every X desktop). On Wayland it sees only the keys of X
 *   applications (XWayland), so hold-to-talk cannot work there: the app says so and offers toggle mode through
 *   Electron's globalShortcut, which the desktop's portal may allow.
 * - macOS: the app must be allowed under System Settings → Privacy & Security → Accessibility (and Input Monitoring);
 *   until then the hook sees nothing, and the app asks for it (systemPreferences.isTrustedAccessibilityClient).
 * - Windows: works for every app except those running as administrator while Voxdesk does not.
 * Loaded when first needed, so an app without the hook (a missing library) starts and says why.
 */
import { createRequire } from 'node:module';
import type { KeyEvent } from './hold-to-talk.js';
import type { KeyTable } from './shortcut.js';
import type * as Uiohook from 'uiohook-napi';

export interface KeyboardHook {
  keys: KeyTable;
  on(event: 'keydown' | 'keyup', listener: (e: KeyEvent) => void): void;
  start(): void;
  stop(): void;
}

/** uiohook-napi's hook, or an Error saying why it cannot run here (the platform's limit, a missing library). */
export function loadKeyboardHook(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): KeyboardHook {
  if (platform === 'linux' && !env.DISPLAY) {
    throw new Error(
      env.WAYLAND_DISPLAY
        ? 'hold-to-talk needs X11: on Wayland the global keyboard hook sees only X applications; use toggle mode (the desktop may ask to allow the shortcut)'
        : 'no display: the global shortcut needs a desktop session (DISPLAY is not set)',
    );
  }
  // libuiohook opens the X display named by DISPLAY when the library is loaded (not when the hook starts): without it
  // the hook has no keyboard map and crashes the process. The display asked for is the process's before the load.
  if (platform === 'linux' && env !== process.env) process.env.DISPLAY = env.DISPLAY;
  let hook: typeof Uiohook;
  try {
    hook = createRequire(import.meta.url)('uiohook-napi') as typeof Uiohook;
  } catch (error) {
    throw new Error(`the global keyboard hook (uiohook-napi) could not be loaded: ${(error as Error).message}${platform === 'linux' ? ' (it needs libxtst6 and libxkbcommon-x11-0)' : ''}`, { cause: error });
  }
  const { uIOhook, UiohookKey } = hook;
  return {
    keys: UiohookKey as unknown as KeyTable,
    on: (event, listener) => void (event === 'keydown' ? uIOhook.on('keydown', listener) : uIOhook.on('keyup', listener)),
    start: () => uIOhook.start(),
    stop: () => uIOhook.stop(),
  };
}
