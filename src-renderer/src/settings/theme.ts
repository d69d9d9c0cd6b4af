/** Theme: follows the OS by default ('system'); Settings can force light or dark. Stored in localStorage. */
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'voxdesk.theme';

export function loadTheme(): ThemeChoice {
  const value = globalThis.localStorage?.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyTheme(choice: ThemeChoice): void {
  globalThis.localStorage?.setItem(KEY, choice);
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
}
