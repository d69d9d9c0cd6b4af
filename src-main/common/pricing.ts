/**
 * The spec's price formula, in one place for everything that shows or records money: a request fee once per
 * successful request (or batch), plus usage by audio minutes, plus priced options (e.g. diarization) by the same
 * minutes. The catalogue publishes a model's `Pricing`; the job engine records it on a job when the job is accepted
 * (a PriceSnapshot) and charges it from the job's `duration_seconds` when the job succeeds; quotes, estimates, live
 * sessions and the renderer compute with these same functions, so money shown and money recorded are one number.
 *
 * Amounts are micro-dollars (integers) so that sums in the ledger are exact, and shown in dollars. A request's usage
 * (and each option) is rounded to the micro-dollar once, on its total: a batch's items are charged as they succeed,
 * each the difference the item makes to the rounded total of the batch so far (`chargedSeconds`), so the batch's
 * rows add up to its total rounded once — what a quote for the batch's seconds says — and never to a sum of 50
 * roundings. Pure (no Node imports): the renderer imports it as `$common/pricing.js`.
 */
import type { Pricing, Quote } from './api-types.js';
import { textLength } from './text-length.js';

export const MICRO = 1_000_000;

/** Speaking rate used to price a text before it is spoken (characters per second of audio; the spec prices texts before queueing). */
export const CHARS_PER_SECOND = 15;

export function toMicro(usd: number): number {
  return Math.round(usd * MICRO);
}
export function fromMicro(micro: number): number {
  return micro / MICRO;
}

/** On-device models cost nothing unless an operator's pricing file says otherwise (docs/design.md §3). */
export const FREE_PRICING: Pricing = { currency: 'USD', request_fee_usd: 0, per_minute_usd: 0, options: {} };

/**
 * The price a job or batch was accepted at (stored on it, migration 010): the catalogue record's pricing, pricing
 * file included, and whether a hosted service bills the work (hosted spending is what the monthly cap limits).
 */
export interface PriceSnapshot {
  pricing: Pricing;
  hosted: boolean;
}

/** Seconds of speech a text is priced at before it is spoken: its length in code points at CHARS_PER_SECOND. */
export function textSeconds(text: string): number {
  return textLength(text) / CHARS_PER_SECOND;
}

/** Priced options switched on in a job's params: a boolean param named like the option, set to true (`speaker_diarization`). */
export function enabledOptions(pricing: Pricing, params: Record<string, unknown>): string[] {
  return Object.keys(pricing.options).filter((name) => params[name] === true);
}

export type ChargeKind = 'request_fee' | 'usage' | 'option';

/** One row of a bill (a ledger row without its bookkeeping): what is charged, for which option, how much. */
export interface Charge {
  kind: ChargeKind;
  /** The priced option of an `option` charge; '' otherwise. */
  option_name: string;
  amount_usd_micro: number;
}

/**
 * The charges of `seconds` of audio at `pricing` with `options` on: the request fee (unless `requestFee` is false:
 * items of a batch, whose batch pays one fee), the usage, and one charge per priced option. Every success is charged
 * these rows; every quote and estimate is their sum.
 */
export function chargesFor(pricing: Pricing, seconds: number, options: readonly string[] = [], requestFee = true, chargedSeconds = 0): Charge[] {
  const before = Math.max(0, chargedSeconds);
  const after = before + Math.max(0, seconds);
  // The item's share of the rounded running total: what the total rounded once becomes with it, less what it was.
  const share = (perMinuteUsd: number): number => minutesMicro(perMinuteUsd, after) - minutesMicro(perMinuteUsd, before);
  const charges: Charge[] = [];
  if (requestFee) charges.push({ kind: 'request_fee', option_name: '', amount_usd_micro: toMicro(pricing.request_fee_usd) });
  charges.push({ kind: 'usage', option_name: '', amount_usd_micro: share(pricing.per_minute_usd) });
  for (const name of options) {
    const option = pricing.options[name];
    if (option) charges.push({ kind: 'option', option_name: name, amount_usd_micro: share(option.per_minute_usd) });
  }
  return charges;
}

/**
 * `seconds` of audio at `perMinuteUsd`, rounded once to the micro-dollar. Seconds count in whole milliseconds (jobs
 * show and are billed from durations of three decimals), so a sum of items gives the same amount in any order.
 */
export function minutesMicro(perMinuteUsd: number, seconds: number): number {
  const ms = Math.round(Math.max(0, seconds) * 1000);
  return Math.round((perMinuteUsd * MICRO * ms) / 60_000);
}

/** The items' seconds added in whole milliseconds (the unit minutesMicro rounds), skipping those not known yet. */
export function totalSeconds(itemSeconds: readonly (number | null)[]): number {
  return itemSeconds.reduce<number>((ms, s) => (s === null ? ms : ms + Math.round(Math.max(0, s) * 1000)), 0) / 1000;
}

export function sumMicro(charges: readonly Charge[]): number {
  return charges.reduce((sum, c) => sum + c.amount_usd_micro, 0);
}

/** Usage and priced options of `seconds` (micro-dollars), each rounded once as the ledger rounds a request's total. */
export function usageMicro(pricing: Pricing, seconds: number, enabled: readonly string[] = []): { usage: number; options: number } {
  const charges = chargesFor(pricing, seconds, enabled, false);
  return {
    usage: charges.find((c) => c.kind === 'usage')!.amount_usd_micro,
    options: sumMicro(charges.filter((c) => c.kind === 'option')),
  };
}

/**
 * What a piece of work will cost, in micro-dollars: the request fee (when `requestFee`) plus usage and options for
 * its items' seconds together, rounded once. An item whose length is not known before it runs (null) adds nothing:
 * its usage is charged when it has run.
 */
export function estimateMicro(pricing: Pricing, itemSeconds: readonly (number | null)[], options: readonly string[] = [], requestFee = true): number {
  return sumMicro(chargesFor(pricing, totalSeconds(itemSeconds), options, requestFee));
}

export function quote(modelId: string, pricing: Pricing, seconds: number, enabled: readonly string[] = []): Quote {
  return itemsQuote(modelId, pricing, [seconds], enabled);
}

/**
 * The quote of a batch (or one request: a single item): one request fee plus the usage and options of the items'
 * seconds together, rounded once as the ledger charges a batch. `seconds` is their sum; an item of unknown length
 * (null) adds nothing yet. The same as `quote(modelId, pricing, seconds)` for that sum.
 */
export function itemsQuote(modelId: string, pricing: Pricing, itemSeconds: readonly (number | null)[], enabled: readonly string[] = []): Quote {
  const seconds = totalSeconds(itemSeconds);
  const { usage, options } = usageMicro(pricing, seconds, enabled);
  const fee = toMicro(pricing.request_fee_usd);
  return {
    model_id: modelId,
    seconds,
    request_fee_usd: fromMicro(fee),
    usage_usd: fromMicro(usage),
    options_usd: fromMicro(options),
    total_usd: fromMicro(fee + usage + options),
    currency: 'USD',
  };
}
