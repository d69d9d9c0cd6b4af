/**
 * The person's choices for dictating anywhere (docs/capture.md): on or off, the shortcut, hold-to-talk or toggle, how
 * the text goes in (paste, or typed for apps that refuse pastes) and the live model (null: the first on-device live
 * speech model). Kept by the desktop app in `<data dir>/hotkey.json` — a desktop setting, not the service's — and
 * changed from the page through the bridge; every value is checked, so a hand-edited file with a wrong value falls
 * back to the default for that value and says so in the log.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HotkeySettingsView } from '../../common/desktop-bridge.js';
import type { HotkeyMode } from './hold-to-talk.js';
import { DEFAULT_SHORTCUT } from './shortcut.js';
import type { InsertionMode } from './text-insertion.js';
import type { Log } from '../../common/log.js';

export interface HotkeySettings {
  enabled: boolean;
  shortcut: string;
  mode: HotkeyMode;
  insertion: InsertionMode;
  model: string | null;
}

export const DEFAULT_HOTKEY_SETTINGS: HotkeySettings = { enabled: true, shortcut: DEFAULT_SHORTCUT, mode: 'hold', insertion: 'paste', model: null };

const FILE = 'hotkey.json';

/** The settings from `value` (a file's JSON, or the page's change on top of the current ones); throws saying what is wrong. */
export function checkHotkeySettings(value: unknown, base: HotkeySettings = DEFAULT_HOTKEY_SETTINGS): HotkeySettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the dictate-anywhere settings must be an object');
  const input = value as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !(k in DEFAULT_HOTKEY_SETTINGS));
  if (unknown.length) throw new Error(`unknown dictate-anywhere setting ${unknown[0]}: the settings are ${Object.keys(DEFAULT_HOTKEY_SETTINGS).join(', ')}`);
  const out = { ...base };
  if (input.enabled !== undefined) {
    if (typeof input.enabled !== 'boolean') throw new Error('enabled must be true or false');
    out.enabled = input.enabled;
  }
  if (input.shortcut !== undefined) {
    if (typeof input.shortcut !== 'string' || !input.shortcut.trim() || input.shortcut.length > 60) throw new Error('shortcut must be written like Ctrl+Alt+Space');
    out.shortcut = input.shortcut.trim();
  }
  if (input.mode !== undefined) {
    if (input.mode !== 'hold' && input.mode !== 'toggle') throw new Error('mode must be hold or toggle');
    out.mode = input.mode;
  }
  if (input.insertion !== undefined) {
    if (input.insertion !== 'paste' && input.insertion !== 'type') throw new Error('insertion must be paste or type');
    out.insertion = input.insertion;
  }
  if (input.model !== undefined) {
    if (input.model !== null && (typeof input.model !== 'string' || !/^[A-Za-z0-9._:-]{1,128}$/.test(input.model))) throw new Error('model must be a model id or null');
    out.model = input.model;
  }
  return out;
}

export async function loadHotkeySettings(dataDir: string, log: Log): Promise<HotkeySettings> {
  let text: string;
  try {
    text = await readFile(join(dataDir, FILE), 'utf8');
  } catch {
    return { ...DEFAULT_HOTKEY_SETTINGS };
  }
  try {
    return checkHotkeySettings(JSON.parse(text));
  } catch (error) {
    log.info(`${join(dataDir, FILE)} was not used (${(error as Error).message}); dictate anywhere starts with its defaults`);
    return { ...DEFAULT_HOTKEY_SETTINGS };
  }
}

/** Written whole and renamed into place, so a crash leaves the old file or the new one. */
export async function saveHotkeySettings(dataDir: string, settings: HotkeySettings): Promise<void> {
  const path = join(dataDir, FILE);
  await writeFile(`${path}.tmp`, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

/** What the page shows: the settings and whether the shortcut is armed (or why not). */
export function hotkeyView(settings: HotkeySettings, status: { armed: boolean; problem: string | null; model: string | null }): HotkeySettingsView {
  return { ...settings, armed: status.armed, problem: status.problem, activeModel: status.model };
}
