/** The insertion this desktop allows (text-insertion.ts), chosen from the platform and the session's environment. */
import { ClipboardPasteInserter, type ClipboardLike } from './clipboard-paste-insertion.js';
import { InsertionError, type InsertionMode, type TextInserter } from './text-insertion.js';
import { WaylandInserter } from './wayland-insertion.js';
import { X11Inserter } from './x11-insertion.js';

export interface InserterContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  mode: InsertionMode;
  clipboard?: ClipboardLike;
  trusted?: () => boolean;
}

export function chooseInserter(context: InserterContext): TextInserter {
  const { platform, env } = context;
  if (platform === 'darwin' || platform === 'win32') {
    if (!context.clipboard) throw new InsertionError('the clipboard is not available to this process');
    return new ClipboardPasteInserter(platform, context.clipboard, context.trusted ?? (() => true), env);
  }
  const wayland = env.XDG_SESSION_TYPE === 'wayland' || (!!env.WAYLAND_DISPLAY && env.XDG_SESSION_TYPE !== 'x11');
  if (wayland) return new WaylandInserter(env);
  if (env.DISPLAY) return new X11Inserter(env, context.mode);
  return {
    insert: () => Promise.reject(new InsertionError('there is no desktop session to insert into (neither DISPLAY nor WAYLAND_DISPLAY is set)')),
  };
}
