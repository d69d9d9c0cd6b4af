/**
 * A clock for text that says how long ago something was ("5 minutes ago"): reading `now` inside a template or a
 * `$derived` redraws it every `intervalMs` for as long as it is on screen, and the timer stops when nothing reads it
 * (svelte/reactivity createSubscriber). Without it such text froze at the moment it was first drawn.
 */
import { createSubscriber } from 'svelte/reactivity';

export class Clock {
  readonly #subscribe: () => void;

  /** `intervalMs`: how often readers are redrawn. Default 20 s: minute steps never lag by more than a third. */
  constructor(intervalMs = 20_000) {
    this.#subscribe = createSubscriber((update) => {
      const timer = setInterval(update, intervalMs);
      return () => clearInterval(timer);
    });
  }

  get now(): number {
    this.#subscribe();
    return Date.now();
  }
}
