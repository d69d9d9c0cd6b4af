/**
 * Progressive rendering: a long list is drawn a slice per animation frame, so creating hundreds of rows (a drop of
 * 50 files, a job list, a long transcript) never blocks the page for one long task. Rows already drawn stay drawn;
 * when the list grows, only the new rows are added slice by slice.
 */
import { nextLimit } from './progressive-slice.js';

export interface ProgressiveOptions {
  /** Rows drawn at once before the first frame and per frame after it. Default 12. */
  step?: number;
  /** Cost of each row in "row units" (e.g. the words of a paragraph); a slice stops at `step` units. Default 1 each. */
  weight?: (index: number) => number;
  /** A value naming the list (e.g. the transcript's result object): when it changes, drawing starts over. Default none. */
  resetOn?: () => unknown;
}

/**
 * A rune-backed limit that follows `total()` one slice per frame. Create it during component initialisation (it
 * owns an `$effect`); read `.limit` and render `list.slice(0, limit)`.
 */
export class ProgressiveLimit {
  #count = $state(0);
  #key = $state.raw<unknown>(undefined);
  readonly #total: () => number;
  readonly #resetOn: () => unknown;
  readonly #first: (count: number) => number;

  constructor(total: () => number, options: ProgressiveOptions = {}) {
    const step = options.step ?? 12;
    const weight = options.weight;
    this.#total = total;
    this.#resetOn = options.resetOn ?? (() => undefined);
    this.#first = (count) => nextLimit(0, count, step, weight);
    this.#key = this.#resetOn();
    this.#count = this.#first(total());
    $effect(() => {
      const key = this.#resetOn();
      const count = this.#total();
      if (key !== this.#key) {
        this.#key = key;
        this.#count = this.#first(count);
      }
      if (this.#count > count) this.#count = count;
      if (this.#count >= count) return;
      const frame = requestAnimationFrame(() => (this.#count = nextLimit(this.#count, count, step, weight)));
      return () => cancelAnimationFrame(frame);
    });
  }

  /** Rows to draw now: a new list (per `resetOn`) starts again with one slice instead of all rows at once. */
  get limit(): number {
    const count = this.#total();
    return this.#resetOn() === this.#key ? Math.min(this.#count, count) : this.#first(count);
  }
}
