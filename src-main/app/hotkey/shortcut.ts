/**
 * A global shortcut written as people write it ("Ctrl+Alt+Space", "Shift+F9"), parsed into the key codes of the
 * keyboard hook (uiohook-napi's UiohookKey codes, the same on every OS) so hold-to-talk can see both the press and the
 * release (docs/capture.md, "Dictate anywhere").
 */

export interface Shortcut {
  /** As written, normalised ("Ctrl+Alt+Space"). */
  text: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  meta: boolean;
  /** The key that is not a modifier. */
  keycode: number;
}

/** The default: hold Ctrl+Alt+Space (Ctrl/Cmd+Shift+Space already starts dictation inside the window). */
export const DEFAULT_SHORTCUT = 'Ctrl+Alt+Space';

const MODIFIERS: Record<string, 'ctrl' | 'alt' | 'shift' | 'meta'> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  shift: 'shift',
  meta: 'meta',
  super: 'meta',
  win: 'meta',
  cmd: 'meta',
  command: 'meta',
};

/** The hook's key names (UiohookKey: `Space`, `A`, `F9`, …) → codes. */
export type KeyTable = Readonly<Record<string, number>>;

/**
 * The shortcut, or an Error naming what is wrong ("Ctrl+Alt" has no key; "Ctrl+Foo" has an unknown one). `keys`:
 * the hook's table (keyboard-hook.ts), so this stays pure.
 */
export function parseShortcut(text: string, keys: KeyTable): Shortcut {
  const parts = text.split('+').map((p) => p.trim()).filter(Boolean);
  const shortcut: Shortcut = { text: '', ctrl: false, alt: false, shift: false, meta: false, keycode: -1 };
  let key: string | null = null;
  for (const part of parts) {
    const modifier = MODIFIERS[part.toLowerCase()];
    if (modifier) shortcut[modifier] = true;
    else if (key !== null) throw new Error(`the shortcut ${text} names two keys (${key} and ${part}); use modifiers and one key, e.g. ${DEFAULT_SHORTCUT}`);
    else key = part;
  }
  if (key === null) throw new Error(`the shortcut ${text} has no key besides its modifiers; e.g. ${DEFAULT_SHORTCUT}`);
  const code = Object.entries(keys).find(([name]) => name.toLowerCase() === key!.toLowerCase())?.[1];
  if (code === undefined) throw new Error(`the shortcut ${text}: ${key} is not a key name (letters, digits, F1–F24, Space, Enter, …)`);
  shortcut.keycode = code;
  const name = key.length === 1 ? key.toUpperCase() : key[0]!.toUpperCase() + key.slice(1);
  shortcut.text = [shortcut.ctrl && 'Ctrl', shortcut.alt && 'Alt', shortcut.shift && 'Shift', shortcut.meta && 'Meta', name].filter(Boolean).join('+');
  return shortcut;
}

/** The hook's modifier key codes, each with the modifier it is. */
export function modifierKeycodes(keys: KeyTable): ReadonlyMap<number, 'ctrl' | 'alt' | 'shift' | 'meta'> {
  const pairs: [string, 'ctrl' | 'alt' | 'shift' | 'meta'][] = [
    ['Ctrl', 'ctrl'], ['CtrlRight', 'ctrl'], ['Alt', 'alt'], ['AltRight', 'alt'], ['Shift', 'shift'], ['ShiftRight', 'shift'], ['Meta', 'meta'], ['MetaRight', 'meta'],
  ];
  return new Map(pairs.filter(([name]) => keys[name] !== undefined).map(([name, modifier]) => [keys[name]!, modifier]));
}
