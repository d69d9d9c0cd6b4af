/**
 * The page's global shortcuts act on the open tab: Ctrl/Cmd+Enter submits what it holds, Esc cancels what it runs.
 * Each tab registers its two actions while it is mounted; App.svelte runs the open tab's. One per page, provided
 * through context (TAB_ACTIONS).
 */
import { contextKey } from './context.js';
import type { TabId } from './shortcuts.js';

export interface TabAction {
  submit?: () => void;
  cancel?: () => void;
}

export class TabActions {
  readonly #actions = new Map<TabId, TabAction>();

  /** Registers `tab`'s actions; returns the function that takes them back (an onMount cleanup). */
  register(tab: TabId, action: TabAction): () => void {
    this.#actions.set(tab, action);
    return () => {
      if (this.#actions.get(tab) === action) this.#actions.delete(tab);
    };
  }

  of(tab: TabId): TabAction | undefined {
    return this.#actions.get(tab);
  }
}

export const TAB_ACTIONS = contextKey<TabActions>('tab actions');
