/**
 * What went wrong last in a piece of work (a live session, a dictation, a download), kept as the failure itself —
 * a PageError, an ApiClientError, or `{code, message}` from a socket — and said in words when read, so the words
 * follow the interface's language even after a switch. Rune state: a view that reads `text` is redrawn.
 */
import { errorText } from './error-messages.js';

export class Problem {
  #failure = $state.raw<unknown>(null);

  /** The failure in plain words, in the interface's language; null when all is well. */
  get text(): string | null {
    return this.#failure === null ? null : errorText(this.#failure);
  }

  get failure(): unknown {
    return this.#failure;
  }

  set(failure: unknown): void {
    this.#failure = failure;
  }

  clear(): void {
    this.#failure = null;
  }
}
