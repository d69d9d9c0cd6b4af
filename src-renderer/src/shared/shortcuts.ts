/**
 * Keyboard shortcuts: Ctrl/Cmd+1..8 switch tabs (in TABS order: Voices, added last, is 8), Ctrl/Cmd+K searches the library, Ctrl/Cmd+Enter submits, Esc
 * cancels, Ctrl/Cmd+Shift+Space starts or stops dictation (from any tab).
 */

export const TABS = ['transcribe', 'speak', 'live', 'jobs', 'models', 'usage', 'settings', 'voices'] as const;
/** The sidebar's order: Voices beside Speak and Live, its shortcut staying 8 so the others keep theirs. */
export const SIDEBAR_TABS: readonly TabId[] = ['transcribe', 'speak', 'voices', 'live', 'jobs', 'models', 'usage', 'settings'];
export type TabId = (typeof TABS)[number];

export type ShortcutAction = { kind: 'tab'; tab: TabId } | { kind: 'search' } | { kind: 'submit' } | { kind: 'cancel' } | { kind: 'dictate' };

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export function shortcutFor(event: KeyLike): ShortcutAction | null {
  const mod = event.ctrlKey || event.metaKey;
  if (event.key === 'Escape' && !mod && !event.altKey) return { kind: 'cancel' };
  if (!mod || event.altKey) return null;
  if (event.key === 'Enter') return { kind: 'submit' };
  if (!event.shiftKey && event.key.toLowerCase() === 'k') return { kind: 'search' };
  if (event.shiftKey && (event.key === ' ' || event.key === 'Spacebar')) return { kind: 'dictate' };
  if (!event.shiftKey && /^[1-8]$/.test(event.key)) return { kind: 'tab', tab: TABS[Number(event.key) - 1]! };
  return null;
}
