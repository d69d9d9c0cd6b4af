/**
 * Keyboard shortcuts as the person's keyboard labels them: "Ctrl+Enter" in English, "Strg+Eingabe" on a German
 * keyboard, "⌘Enter" on a Mac. The keys themselves are the same everywhere (shortcuts.ts).
 */
import { t } from './i18n/i18n.svelte.js';

export type ShortcutName = 'submit' | 'cancel' | 'dictate' | 'search' | 'undo' | 'enter' | 'tab' | 'nextFlagged' | 'nextUncertain';

export function isMac(): boolean {
  const platform = (globalThis as { navigator?: { platform?: string } }).navigator?.platform ?? '';
  return /Mac/.test(platform);
}

/** The label of a shortcut; `tab` takes the section's number (1–7). */
export function keyLabel(name: ShortcutName, tabNumber = 1): string {
  const mod = isMac() ? '⌘' : `${t('keys.ctrl')}+`;
  switch (name) {
    case 'submit':
      return `${mod}${t('keys.enter')}`;
    case 'cancel':
      return t('keys.esc');
    case 'dictate':
      return `${mod}${t('keys.shift')}+${t('keys.space')}`;
    case 'search':
      return `${mod}K`;
    case 'undo':
      return `${mod}Z`;
    case 'enter':
      return t('keys.enter');
    case 'tab':
      return `${mod}${tabNumber}`;
    case 'nextFlagged':
      return 'F8';
    case 'nextUncertain':
      return 'F9';
  }
}
