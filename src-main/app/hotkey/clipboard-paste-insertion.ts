/**
 * Insertion on macOS and Windows (text-insertion.ts) through Electron's clipboard: what the person had (text, HTML,
 * an image) is saved, the text put there, the paste keystroke sent — Cmd+V through System Events (osascript: macOS
 * asks the person to allow Voxdesk under Accessibility, which the app requests first and explains), Ctrl+V through
 * PowerShell's SendKeys on Windows — and the clipboard given back once the app has read it.
 */
import { InsertionError, type InsertResult, type TextInserter } from './text-insertion.js';
import { runTool } from './run-tool.js';
import { PASTE_SETTLE_MS } from './x11-insertion.js';

/** The part of Electron's clipboard used here. */
export interface ClipboardLike {
  readText(): string;
  readHTML(): string;
  readImage(): { isEmpty(): boolean };
  write(data: { text?: string; html?: string; image?: unknown }): void;
  writeText(text: string): void;
  clear(): void;
}

export class ClipboardPasteInserter implements TextInserter {
  constructor(
    private readonly platform: 'darwin' | 'win32',
    private readonly clipboard: ClipboardLike,
    /** macOS: whether the app may send keys (systemPreferences.isTrustedAccessibilityClient(true) also asks). */
    private readonly trusted: () => boolean,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async insert(text: string): Promise<InsertResult> {
    if (this.platform === 'darwin' && !this.trusted()) {
      throw new InsertionError('macOS has not allowed Voxdesk to type into other apps: allow it in System Settings → Privacy & Security → Accessibility, then dictate again');
    }
    const image = this.clipboard.readImage();
    const saved = { text: this.clipboard.readText(), html: this.clipboard.readHTML(), image: image.isEmpty() ? undefined : image };
    this.clipboard.writeText(text);
    try {
      if (this.platform === 'darwin') {
        await runTool('osascript', ['-e', 'tell application "System Events" to keystroke "v" using command down'], { env: this.env, packageName: 'macOS' });
      } else {
        await runTool('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', "Add-Type -AssemblyName System.Windows.Forms; [System.Windows.Forms.SendKeys]::SendWait('^v')"], { env: this.env, packageName: 'Windows PowerShell' });
      }
      await new Promise((resolve) => setTimeout(resolve, PASTE_SETTLE_MS));
    } finally {
      if (saved.text || saved.html || saved.image) this.clipboard.write({ ...(saved.text ? { text: saved.text } : {}), ...(saved.html ? { html: saved.html } : {}), ...(saved.image ? { image: saved.image } : {}) });
      else this.clipboard.clear();
    }
    return { how: 'pasted' };
  }
}
