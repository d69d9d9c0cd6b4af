/**
 * The price shown before the click (Speak, Transcribe on a hosted model): a moment after the person stops typing or
 * dropping files, the model's catalogue record is read from the service (the same resolved record, pricing file
 * included, whose price the job engine records when it accepts the job) and the quote is computed with the service's
 * own formula (common/pricing.ts itemsQuote): one request fee per request, plus each item's usage and options, each
 * rounded as the ledger will charge it. Cleared when the service cannot tell.
 */
import type { CatalogueRecord, Quote } from '$common/api-types.js';
import { enabledOptions, fromMicro, itemsQuote, toMicro } from '$common/pricing.js';
import type { ServiceHost } from '../service/service-host.js';

/** How long a fetched catalogue record is reused before it is read again. Default 30 s. */
export const RECORD_TTL_MS = 30_000;

export class PriceQuote {
  quote = $state<Quote | null>(null);
  /** The record the quote was computed from: its provider says whether a hosted service bills the work. */
  model = $state.raw<CatalogueRecord | null>(null);
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Answers to requests older than the newest are dropped. */
  #asked = 0;
  #cached: { record: CatalogueRecord; at: number } | null = null;

  constructor(
    private readonly host: Pick<ServiceHost, 'api'>,
    /** Quiet time before asking. Default 250 ms. */
    private readonly delayMs = 250,
  ) {}

  get hosted(): boolean {
    return this.model?.provider === 'remote';
  }

  /**
   * Prices `requests` on `modelId` after the quiet time (a newer request replaces this one): each request is a list
   * of item lengths in seconds (one item for a single job, the lines or files of a batch; null: not known yet), and
   * pays one fee. A plain number is one request of one item. `params` switch priced options on.
   */
  request(modelId: string | undefined, requests: number | readonly (readonly (number | null)[])[], params: Record<string, unknown> = {}): void {
    clearTimeout(this.#timer);
    if (!modelId) return;
    const asked = ++this.#asked;
    const groups = typeof requests === 'number' ? [[requests]] : requests;
    this.#timer = setTimeout(() => {
      this.#record(modelId).then(
        (record) => {
          if (asked !== this.#asked) return;
          this.model = record;
          this.quote = groups.length ? combine(modelId, record, groups, params) : null;
        },
        () => {
          if (asked !== this.#asked) return;
          this.model = null;
          this.quote = null;
        },
      );
    }, this.delayMs);
  }

  async #record(modelId: string): Promise<CatalogueRecord> {
    const cached = this.#cached;
    if (cached && cached.record.id === modelId && Date.now() - cached.at < RECORD_TTL_MS) return cached.record;
    const record = await this.host.api.getModel(modelId);
    this.#cached = { record, at: Date.now() };
    return record;
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}

function combine(modelId: string, record: CatalogueRecord, groups: readonly (readonly (number | null)[])[], params: Record<string, unknown>): Quote {
  const options = enabledOptions(record.pricing, params);
  const parts = groups.map((items) => itemsQuote(modelId, record.pricing, items, options));
  const sum = (pick: (q: Quote) => number): number => fromMicro(parts.reduce((s, q) => s + toMicro(pick(q)), 0));
  return {
    model_id: modelId,
    seconds: parts.reduce((s, q) => s + q.seconds, 0),
    request_fee_usd: sum((q) => q.request_fee_usd),
    usage_usd: sum((q) => q.usage_usd),
    options_usd: sum((q) => q.options_usd),
    total_usd: sum((q) => q.total_usd),
    currency: 'USD',
  };
}
