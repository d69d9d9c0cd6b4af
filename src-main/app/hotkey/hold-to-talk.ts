/**
 * Turns the keyboard hook's key presses and releases into "start listening" and "stop" (docs/capture.md):
 * - hold: the shortcut pressed (its key down while exactly its modifiers are held) starts; releasing the key or any
 *   of its modifiers stops — so a person who lets go of Ctrl before Space still ends the dictation;
 * - toggle: each press starts or stops.
 * The OS repeats a held key's key-down: repeats are ignored. Pure logic: the hook and the dictation are outside.
 */
import type { Shortcut } from './shortcut.js';

export type HotkeyMode = 'hold' | 'toggle';

export interface KeyEvent {
  keycode: number;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

export class HoldToTalk {
  private held = false;
  private active = false;

  constructor(
    private readonly shortcut: Shortcut,
    private readonly mode: HotkeyMode,
    /** The hook's modifier key codes (shortcut.ts modifierKeycodes). */
    private readonly modifiers: ReadonlyMap<number, 'ctrl' | 'alt' | 'shift' | 'meta'>,
    private readonly on: { start(): void; stop(): void },
  ) {}

  get listening(): boolean {
    return this.active;
  }

  keydown(e: KeyEvent): void {
    if (e.keycode !== this.shortcut.keycode) return;
    const s = this.shortcut;
    const exact = e.ctrlKey === s.ctrl && e.altKey === s.alt && e.shiftKey === s.shift && e.metaKey === s.meta;
    if (!exact || this.held) return;
    this.held = true;
    if (this.mode === 'hold' || !this.active) this.begin();
    else this.end();
  }

  keyup(e: KeyEvent): void {
    const modifier = this.modifiers.get(e.keycode);
    const partOfShortcut = e.keycode === this.shortcut.keycode || (modifier !== undefined && this.shortcut[modifier]);
    if (!partOfShortcut || !this.held) return;
    this.held = false;
    if (this.mode === 'hold' && this.active) this.end();
  }

  /** The app stops listening by itself (an error, quitting). */
  reset(): void {
    this.held = false;
    this.active = false;
  }

  private begin(): void {
    this.active = true;
    this.on.start();
  }

  private end(): void {
    this.active = false;
    this.on.stop();
  }
}
