/**
 * The dictation indicator (docs/capture.md, "Dictate anywhere"): a small pill above every window that says what a
 * dictation started with the global shortcut is doing — listening, recognising, inserted, or what went wrong — and
 * never takes the focus, so the text still goes to the app the person was in. It is a static page (no script, no
 * preload, a CSP that allows nothing but its inline style) drawn again for each state from a data: address, and it
 * hides itself a moment after the text is in (longer after an error, so it can be read).
 */
import type { BrowserWindowLike, Cancellable, ElectronApi } from '../electron-api.js';
import type { IndicatorState } from './hotkey-dictation.js';

/** How long the indicator stays after the text is in. Default 1.2 s. */
export const INDICATOR_DONE_MS = 1_200;
/** How long an error stays. Default 6 s. */
export const INDICATOR_ERROR_MS = 6_000;

const LABELS: Record<Exclude<IndicatorState['state'], 'idle'>, { text: string; colour: string }> = {
  listening: { text: 'Listening…', colour: '#d33' },
  recognising: { text: 'Recognising…', colour: '#d80' },
  inserted: { text: 'Inserted', colour: '#2a2' },
  error: { text: 'Not inserted', colour: '#d33' },
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page the indicator shows for a state (a data: URL). */
export function indicatorPage(state: IndicatorState): string {
  if (state.state === 'idle') return 'about:blank';
  const label = LABELS[state.state];
  const detail = state.state === 'error' ? state.message : state.state === 'inserted' && state.how === 'copied' ? 'On the clipboard: paste it' : '';
  const html = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>html,body{margin:0;height:100%;background:#202124;color:#fff;font:13px system-ui,sans-serif;overflow:hidden}
body{display:flex;align-items:center;gap:8px;padding:0 12px;box-sizing:border-box}
i{flex:none;width:10px;height:10px;border-radius:50%;background:${label.colour}}small{opacity:.8;display:block}</style>
<i></i><div><b>Voxdesk: ${escapeHtml(label.text)}</b>${detail ? `<small>${escapeHtml(detail)}</small>` : ''}</div>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export class IndicatorWindow {
  private window: BrowserWindowLike | null = null;
  private hideTimer: NodeJS.Timeout | null = null;
  /** The last state shown (the tests and the tray read it). */
  state: IndicatorState = { state: 'idle' };

  constructor(private readonly electron: Pick<ElectronApi, 'BrowserWindow'>) {}

  show(state: IndicatorState): void {
    this.state = state;
    if (this.hideTimer) clearTimeout(this.hideTimer);
    this.hideTimer = null;
    if (state.state === 'idle') return this.window?.hide();
    const window = this.ensure();
    void window.loadURL(indicatorPage(state)).catch(() => undefined);
    window.showInactive();
    if (state.state === 'inserted' || state.state === 'error') {
      this.hideTimer = setTimeout(() => this.show({ state: 'idle' }), state.state === 'error' ? INDICATOR_ERROR_MS : INDICATOR_DONE_MS);
      this.hideTimer.unref();
    }
  }

  destroy(): void {
    if (this.hideTimer) clearTimeout(this.hideTimer);
    this.window = null;
  }

  private ensure(): BrowserWindowLike {
    if (this.window && !this.window.isDestroyed()) return this.window;
    const window = new this.electron.BrowserWindow({
      width: 320,
      height: 52,
      minWidth: 320,
      minHeight: 52,
      title: 'Voxdesk dictation',
      show: false,
      frame: false,
      alwaysOnTop: true,
      focusable: false,
      skipTaskbar: true,
      resizable: false,
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
        disableBlinkFeatures: 'Auxclick',
        devTools: false,
      },
    });
    // Nothing on the pill navigates, opens windows or attaches views. (Its session is the app window's: the
    // permission handlers app-window.ts sets there already refuse every origin but the app's.)
    window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    window.webContents.on('will-navigate', (event: Cancellable) => event.preventDefault());
    window.webContents.on('will-attach-webview', (event: Cancellable) => event.preventDefault());
    this.window = window;
    return window;
  }
}
