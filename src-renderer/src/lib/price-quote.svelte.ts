/**
 * The live price next to the Speak button: asked of the service a moment after the person stops typing (one quote
 * per pause, not per key), and cleared when the service cannot quote.
 */
import type { Quote } from '$common/api-types.js';
import type { ServiceHost } from './service-host.js';

export class PriceQuote {
  quote = $state<Quote | null>(null);
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Answers to requests older than the newest are dropped. */
  #asked = 0;

  constructor(
    private readonly host: Pick<ServiceHost, 'api'>,
    /** Quiet time before asking. Default 250 ms. */
    private readonly delayMs = 250,
  ) {}

  /** Asks for the price of `seconds` of `modelId` after the quiet time; a newer request replaces this one. */
  request(modelId: string | undefined, seconds: number): void {
    clearTimeout(this.#timer);
    if (!modelId) return;
    const asked = ++this.#asked;
    this.#timer = setTimeout(() => {
      this.host.api.quote(modelId, Math.max(1, Math.round(seconds))).then(
        (q) => asked === this.#asked && (this.quote = q),
        () => asked === this.#asked && (this.quote = null),
      );
    }, this.delayMs);
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}
