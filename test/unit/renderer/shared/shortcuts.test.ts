/** The keyboard shortcuts of the page (src-renderer/src/shared/shortcuts.ts). */
import { describe, expect, it } from 'vitest';
import { shortcutFor } from '../../../../src-renderer/src/shared/shortcuts.js';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {}) => ({
  key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods,
});

describe('shortcuts', () => {
  it('maps Ctrl/Cmd+1..8, Ctrl/Cmd+K, Ctrl+Enter and Esc', () => {
    expect(shortcutFor(key('1', { ctrlKey: true }))).toEqual({ kind: 'tab', tab: 'transcribe' });
    expect(shortcutFor(key('6', { metaKey: true }))).toEqual({ kind: 'tab', tab: 'usage' });
    expect(shortcutFor(key('7', { metaKey: true }))).toEqual({ kind: 'tab', tab: 'settings' });
    expect(shortcutFor(key('Enter', { ctrlKey: true }))).toEqual({ kind: 'submit' });
    expect(shortcutFor(key('Escape'))).toEqual({ kind: 'cancel' });
    expect(shortcutFor(key('k', { ctrlKey: true }))).toEqual({ kind: 'search' });
    expect(shortcutFor(key('K', { metaKey: true }))).toEqual({ kind: 'search' });
    expect(shortcutFor(key('k'))).toBeNull();
    expect(shortcutFor(key('k', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(shortcutFor(key('8', { ctrlKey: true }))).toEqual({ kind: 'tab', tab: 'voices' });
    expect(shortcutFor(key('9', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key('1'))).toBeNull();
    expect(shortcutFor(key('1', { ctrlKey: true, altKey: true }))).toBeNull();
  });

  it('maps Ctrl/Cmd+Shift+Space to dictation; Space alone or with Ctrl only is typing', () => {
    expect(shortcutFor(key(' ', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'dictate' });
    expect(shortcutFor(key(' ', { metaKey: true, shiftKey: true }))).toEqual({ kind: 'dictate' });
    expect(shortcutFor(key(' ', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key(' ', { shiftKey: true }))).toBeNull();
  });
});
