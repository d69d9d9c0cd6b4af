/**
 * Files that never became a job: refused before or while they were sent (an empty file, one larger than the model
 * takes, a drop the service turned down). They have no job on the service, so the page keeps them itself, in this
 * browser's localStorage, and Jobs → Problems lists them beside the failed jobs until the person dismisses them or
 * sends the file again successfully. A reload keeps them; another browser does not see them.
 */
import { contextKey } from '../shared/context.js';

export interface UnsentFile {
  id: string;
  name: string;
  size: number;
  /** Why it was not sent: an error code (errors.* in the locales; `empty_file` is the page's own). */
  code: string;
  /** The service's own words, when it was the service that refused. */
  message: string | null;
  model: string;
  at: string;
}

/** Unsent files remembered, newest first. Default 200: enough for a bad day, bounded in localStorage. */
const MAX_KEPT = 200;
const KEY = 'voxdesk.unsentFiles';

function load(): UnsentFile[] {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '[]');
    return Array.isArray(stored) ? (stored as UnsentFile[]).filter((f) => typeof f?.id === 'string' && typeof f.name === 'string') : [];
  } catch {
    return [];
  }
}

export class UnsentFiles {
  list = $state.raw<UnsentFile[]>(load());
  #seq = 0;

  /** Remembers a file that was not sent; returns its id (to forget it once a later try succeeds). */
  add(file: { name: string; size: number }, model: string, error: { code: string; message: string | null }): string {
    const id = `unsent_${Date.now().toString(36)}_${++this.#seq}`;
    // A timestamp, never mutated or rendered as a Date.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    this.#save([{ id, name: file.name, size: file.size, code: error.code, message: error.message, model, at: new Date().toISOString() }, ...this.list].slice(0, MAX_KEPT));
    return id;
  }

  dismiss(id: string): void {
    this.#save(this.list.filter((f) => f.id !== id));
  }

  #save(list: UnsentFile[]): void {
    this.list = list;
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(list));
    } catch {
      // Storage full or blocked: the list still holds them for this page.
    }
  }
}

export const UNSENT_FILES = contextKey<UnsentFiles>('files that were not sent');
