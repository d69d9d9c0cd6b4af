/**
 * Dictate anywhere's pure parts: the shortcut as people write it, hold-to-talk and toggle from presses and releases
 * (a modifier let go first, the OS's key repeats), the settings a page or a hand-edited file may send, the
 * indicator's page, and why the shortcut is not armed where it cannot be.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DesktopHotkey } from '../../../../src-main/app/hotkey/desktop-hotkey.js';
import { HoldToTalk, type KeyEvent } from '../../../../src-main/app/hotkey/hold-to-talk.js';
import { checkHotkeySettings, DEFAULT_HOTKEY_SETTINGS, loadHotkeySettings, saveHotkeySettings } from '../../../../src-main/app/hotkey/hotkey-settings.js';
import { indicatorPage } from '../../../../src-main/app/hotkey/indicator-window.js';
import { modifierKeycodes, parseShortcut } from '../../../../src-main/app/hotkey/shortcut.js';
import { logInto } from '../../../helpers/log.js';
import { silentLog } from '../../../../src-main/common/log.js';

// A few of uiohook-napi's UiohookKey codes (the same on every OS).
const KEYS = { Space: 57, A: 30, F9: 67, Ctrl: 29, CtrlRight: 3613, Alt: 56, AltRight: 3640, Shift: 42, ShiftRight: 54, Meta: 3675, MetaRight: 3676 };
const key = (keycode: number, mods: Partial<KeyEvent> = {}): KeyEvent => ({ keycode, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods });

describe('shortcut', () => {
  it('reads modifiers in any spelling and one key, and says what is wrong otherwise', () => {
    expect(parseShortcut('ctrl + alt + space', KEYS)).toEqual({ text: 'Ctrl+Alt+Space', ctrl: true, alt: true, shift: false, meta: false, keycode: 57 });
    expect(parseShortcut('Cmd+Shift+f9', KEYS)).toMatchObject({ text: 'Shift+Meta+F9', meta: true, shift: true, keycode: 67 });
    expect(() => parseShortcut('Ctrl+Alt', KEYS)).toThrow(/no key besides its modifiers/);
    expect(() => parseShortcut('Ctrl+A+Space', KEYS)).toThrow(/names two keys \(A and Space\)/);
    expect(() => parseShortcut('Ctrl+Foo', KEYS)).toThrow(/Foo is not a key name/);
  });
});

describe('hold-to-talk', () => {
  const shortcut = parseShortcut('Ctrl+Alt+Space', KEYS);
  const run = (mode: 'hold' | 'toggle'): { talk: HoldToTalk; calls: string[] } => {
    const calls: string[] = [];
    const talk = new HoldToTalk(shortcut, mode, modifierKeycodes(KEYS), { start: () => calls.push('start'), stop: () => calls.push('stop') });
    return { talk, calls };
  };
  const held = { ctrlKey: true, altKey: true };

  it('hold: the press starts, the OS repeats are ignored, the release stops', () => {
    const { talk, calls } = run('hold');
    talk.keydown(key(57, held));
    talk.keydown(key(57, held));
    talk.keydown(key(57, held));
    expect(talk.listening).toBe(true);
    talk.keyup(key(57, held));
    expect(calls).toEqual(['start', 'stop']);
  });

  it('hold: letting go of a modifier before the key also stops', () => {
    const { talk, calls } = run('hold');
    talk.keydown(key(57, held));
    talk.keyup(key(29, { altKey: true }));
    talk.keyup(key(57, { altKey: true }));
    expect(calls).toEqual(['start', 'stop']);
  });

  it('needs exactly its modifiers: Space alone or Ctrl+Alt+Shift+Space does nothing', () => {
    const { talk, calls } = run('hold');
    talk.keydown(key(57));
    talk.keydown(key(57, { ...held, shiftKey: true }));
    talk.keyup(key(57));
    expect(calls).toEqual([]);
  });

  it('toggle: a press starts, the next press stops; releases do nothing', () => {
    const { talk, calls } = run('toggle');
    talk.keydown(key(57, held));
    talk.keyup(key(57, held));
    expect(calls).toEqual(['start']);
    talk.keydown(key(57, held));
    talk.keyup(key(57, held));
    expect(calls).toEqual(['start', 'stop']);
  });
});

describe('settings', () => {
  it('takes a change on top of the current settings and refuses wrong values with what is expected', () => {
    expect(checkHotkeySettings({ mode: 'toggle' }, DEFAULT_HOTKEY_SETTINGS)).toEqual({ ...DEFAULT_HOTKEY_SETTINGS, mode: 'toggle' });
    expect(() => checkHotkeySettings({ mode: 'press' })).toThrow('mode must be hold or toggle');
    expect(() => checkHotkeySettings({ insertion: 'drop' })).toThrow('insertion must be paste or type');
    expect(() => checkHotkeySettings({ enabled: 'yes' })).toThrow('enabled must be true or false');
    expect(() => checkHotkeySettings({ shortcut: '' })).toThrow(/Ctrl\+Alt\+Space/);
    expect(() => checkHotkeySettings({ model: '../x' })).toThrow('model must be a model id or null');
    expect(() => checkHotkeySettings({ colour: 'red' })).toThrow(/unknown dictate-anywhere setting colour/);
    expect(() => checkHotkeySettings([])).toThrow(/must be an object/);
  });

  it('are kept in the data folder; a damaged file falls back to the defaults and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-hotkey-settings-'));
    const logged: string[] = [];
    expect(await loadHotkeySettings(dir, logInto(logged))).toEqual(DEFAULT_HOTKEY_SETTINGS);
    await saveHotkeySettings(dir, { ...DEFAULT_HOTKEY_SETTINGS, shortcut: 'Shift+F9', insertion: 'type' });
    expect(await loadHotkeySettings(dir, logInto(logged))).toMatchObject({ shortcut: 'Shift+F9', insertion: 'type' });
    writeFileSync(join(dir, 'hotkey.json'), '{"mode": "sometimes"}');
    expect(await loadHotkeySettings(dir, logInto(logged))).toEqual(DEFAULT_HOTKEY_SETTINGS);
    expect(logged).toEqual([expect.stringMatching(/hotkey\.json was not used \(mode must be hold or toggle\)/)]);
  });
});

describe('indicator', () => {
  it('draws each state as a static page that runs nothing, with the error in plain text', () => {
    expect(indicatorPage({ state: 'idle' })).toBe('about:blank');
    const page = decodeURIComponent(indicatorPage({ state: 'error', message: '<script>alert(1)</script> no display', jobId: 'job_1' }));
    expect(page).toContain("default-src 'none'");
    expect(page).not.toContain('<script>');
    expect(page).toContain('&#60;script&#62;');
    expect(decodeURIComponent(indicatorPage({ state: 'listening' }))).toContain('Listening…');
  });
});

describe('arming the shortcut', () => {
  const base = { serviceUrl: 'http://127.0.0.1:9', apiKey: 'k', indicator: () => {}, log: silentLog, microphone: () => ({ start() {}, stop() {} }) as never };
  const settings = { ...DEFAULT_HOTKEY_SETTINGS, model: 'pocketsphinx-en-us' };

  it('says why where it cannot watch the keyboard: no display, Wayland', async () => {
    expect(await new DesktopHotkey({ ...base, env: {}, platform: 'linux' }).apply(settings)).toEqual({ armed: false, problem: expect.stringMatching(/DISPLAY is not set/), model: 'pocketsphinx-en-us' });
    expect((await new DesktopHotkey({ ...base, env: { WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux' }).apply(settings)).problem).toMatch(/hold-to-talk needs X11.*toggle mode/);
  });

  it('off is off; a shortcut it cannot read is named', async () => {
    const loadHook = () => ({ keys: KEYS, on() {}, start() {}, stop() {} });
    const hotkey = new DesktopHotkey({ ...base, env: { DISPLAY: ':0' }, platform: 'linux', loadHook });
    expect(await hotkey.apply({ ...settings, enabled: false })).toEqual({ armed: false, problem: null, model: null });
    expect((await hotkey.apply({ ...settings, shortcut: 'Ctrl+Nope' })).problem).toMatch(/Nope is not a key name/);
    expect(await hotkey.apply(settings)).toEqual({ armed: true, problem: null, model: 'pocketsphinx-en-us' });
  });

  it('macOS: without the Accessibility permission it is not armed, and says where to allow it', async () => {
    const loadHook = () => ({ keys: KEYS, on() {}, start() {}, stop() {} });
    const asked: boolean[] = [];
    const hotkey = new DesktopHotkey({ ...base, env: {}, platform: 'darwin', loadHook, trusted: (prompt) => (asked.push(prompt), false), clipboard: {} as never });
    expect((await hotkey.apply(settings)).problem).toMatch(/Privacy & Security → Accessibility/);
    expect(asked).toEqual([true]);
  });
});
