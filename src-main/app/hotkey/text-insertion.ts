/**
 * Puts dictated text into the app that has the focus (docs/capture.md, "Dictate anywhere"), the way each desktop
 * allows:
 * - X11: the person's clipboard is saved, the text put there, the paste keystroke (Ctrl+V) sent with xdotool, and the
 *   clipboard given back (x11-insertion.ts); or typed key by key (`type` mode), for apps that refuse pastes.
 * - Wayland: typed by wtype (wlroots desktops) or ydotool (needs its ydotoold service) when present; otherwise the
 *   text is left on the clipboard (wl-copy) and the person is told to paste it; with neither, the error says what to
 *   install (wayland-insertion.ts). Wayland lets no app send keys to another without such a tool.
 * - macOS and Windows: the clipboard is saved, the text put there, Cmd+V / Ctrl+V sent (System Events through
 *   osascript, which needs the Accessibility permission the app asks for; SendKeys through PowerShell on Windows), and
 *   the clipboard given back (clipboard-paste-insertion.ts).
 * A failure never loses the text: it stays in the dictation's job, and the error says why it could not be inserted.
 */

export type InsertionMode = 'paste' | 'type';

export interface InsertResult {
  /** How the text got there: pasted, typed, or only copied (the person pastes it). */
  how: 'pasted' | 'typed' | 'copied';
}

export interface TextInserter {
  insert(text: string): Promise<InsertResult>;
}

/** Insertion is impossible here; `message` says why and what to do. */
export class InsertionError extends Error {
  readonly code = 'insertion_unavailable';
}
