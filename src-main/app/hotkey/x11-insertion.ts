/**
 * Insertion on X11 (text-insertion.ts): `paste` saves the clipboard (its richest text or image target, through
 * xclip), offers the text with an xclip that serves it, sends Ctrl+V to the focused window with xdotool
 * (`--clearmodifiers`, so the shortcut's own keys still held do not turn it into Ctrl+Alt+V), waits for the paste to
 * be read, then gives the clipboard back — or, when it was empty, ends the xclip serving the text, which empties it
 * again. `type` types the text with xdotool. Both need xdotool and xclip (Debian: xdotool, xclip).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { InsertionError, type InsertionMode, type InsertResult, type TextInserter } from './text-insertion.js';
import { runTool } from './run-tool.js';

/** How long the target app gets to read the pasted text before the clipboard is given back. Default 250 ms. */
export const PASTE_SETTLE_MS = 250;

/** Targets kept, richest first: what a person most likely copied. */
const KEPT_TARGETS = ['image/png', 'text/html', 'UTF8_STRING', 'text/plain;charset=utf-8', 'STRING', 'TEXT'];

interface SavedClipboard {
  target: string;
  data: Buffer;
}

export class X11Inserter implements TextInserter {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly mode: InsertionMode = 'paste',
  ) {
    if (!env.DISPLAY) throw new InsertionError('no X display to insert into (DISPLAY is not set)');
  }

  async insert(text: string): Promise<InsertResult> {
    if (this.mode === 'type') {
      await runTool('xdotool', ['type', '--clearmodifiers', '--delay', '1', '--', text], { env: this.env, packageName: 'xdotool' });
      return { how: 'typed' };
    }
    const saved = await this.save();
    const offer = this.serveText(text);
    try {
      await offer.owned;
      await runTool('xdotool', ['key', '--clearmodifiers', 'ctrl+v'], { env: this.env, packageName: 'xdotool' });
      await new Promise((resolve) => setTimeout(resolve, PASTE_SETTLE_MS));
    } finally {
      // The person's content back (an xclip that forks and serves it as they left it), else an empty clipboard again.
      if (saved) await runTool('xclip', ['-selection', 'clipboard', '-i', '-t', saved.target], { env: this.env, input: saved.data, packageName: 'xclip', forks: true });
      offer.child.kill();
    }
    return { how: 'pasted' };
  }

  /** The clipboard's content in its richest kept target, or null when it is empty. */
  private async save(): Promise<SavedClipboard | null> {
    let targets: string[];
    try {
      targets = (await runTool('xclip', ['-selection', 'clipboard', '-o', '-t', 'TARGETS'], { env: this.env, packageName: 'xclip' })).toString().split('\n').map((t) => t.trim());
    } catch (error) {
      if (error instanceof InsertionError) throw error;
      return null; // Nobody owns the clipboard.
    }
    const target = KEPT_TARGETS.find((t) => targets.includes(t));
    if (!target) return null;
    try {
      return { target, data: await runTool('xclip', ['-selection', 'clipboard', '-o', '-t', target], { env: this.env, packageName: 'xclip' }) };
    } catch {
      return null;
    }
  }

  /**
   * An xclip in the foreground (`-quiet`: it does not fork, so ending it ends the offer) serving the text; `owned`
   * resolves once the clipboard reads back as the text.
   */
  private serveText(text: string): { child: ChildProcess; owned: Promise<void> } {
    const child = spawn('xclip', ['-selection', 'clipboard', '-i', '-quiet'], { env: this.env, stdio: ['pipe', 'ignore', 'ignore'] });
    const owned = new Promise<void>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new InsertionError('xclip is not installed (package xclip)') : error));
      child.stdin!.on('error', () => {});
      child.stdin!.end(text);
      const deadline = Date.now() + OWN_TIMEOUT_MS;
      const check = (): void => {
        runTool('xclip', ['-selection', 'clipboard', '-o'], { env: this.env, packageName: 'xclip' }).then(
          (out) => (out.toString() === text ? resolve() : retry()),
          () => retry(),
        );
      };
      const retry = (): void => {
        if (Date.now() > deadline) reject(new Error('the clipboard could not be taken to paste the text (another program holds it)'));
        else setTimeout(check, 20);
      };
      check();
    });
    return { child, owned };
  }
}

/** How long taking the clipboard may take. Default 2 s. */
const OWN_TIMEOUT_MS = 2_000;
