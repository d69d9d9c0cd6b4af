/**
 * Insertion on Wayland (text-insertion.ts), where no app may send keys to another by itself: wtype types the text on
 * wlroots-based desktops (Sway, Hyprland; GNOME and KDE refuse its virtual keyboard), ydotool types it anywhere when
 * its ydotoold service runs (it writes to /dev/uinput); else the text goes to the clipboard with wl-copy and the
 * person is told to paste it. With none of the three the error names what to install. (wtype 0.4 is in Debian 12;
 * ydotool and wl-clipboard too.)
 */
import { InsertionError, type InsertResult, type TextInserter } from './text-insertion.js';
import { hasTool, runTool } from './run-tool.js';

export class WaylandInserter implements TextInserter {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async insert(text: string): Promise<InsertResult> {
    const failures: string[] = [];
    if (await hasTool('wtype', this.env)) {
      try {
        await runTool('wtype', ['--', text], { env: this.env, packageName: 'wtype' });
        return { how: 'typed' };
      } catch (error) {
        failures.push(`wtype: ${(error as Error).message}`);
      }
    }
    if (await hasTool('ydotool', this.env)) {
      try {
        await runTool('ydotool', ['type', '--', text], { env: this.env, packageName: 'ydotool' });
        return { how: 'typed' };
      } catch (error) {
        failures.push(`ydotool (is ydotoold running?): ${(error as Error).message}`);
      }
    }
    if (await hasTool('wl-copy', this.env)) {
      await runTool('wl-copy', ['--', text], { env: this.env, packageName: 'wl-clipboard', forks: true });
      return { how: 'copied' };
    }
    throw new InsertionError(
      `Wayland lets no app type into another without a helper: install wtype (wlroots desktops), ydotool (with ydotoold running) or wl-clipboard (the text is then copied for you to paste)${failures.length ? `; tried ${failures.join('; ')}` : ''}`,
    );
  }
}
