/**
 * The dictation hotkey (Ctrl/Cmd+Shift+Space) from any tab: the Dictate panel registers `toggle` while it is shown;
 * otherwise the hotkey opens it with `startPending` set, and the panel starts dictating as soon as it is mounted.
 * One per page, provided through context (DICTATE_HOTKEY).
 */
import { contextKey } from '../../shared/context.js';

export class DictateHotkey {
  toggle: (() => void) | null = null;
  startPending = false;
}

export const DICTATE_HOTKEY = contextKey<DictateHotkey>('dictation hotkey');
