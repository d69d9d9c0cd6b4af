/**
 * The spec's price formula: a request fee once per successful request (or batch), plus usage by audio minutes,
 * plus priced options (e.g. diarization) by the same minutes. Amounts are kept in micro-dollars (integers) so that
 * sums in the ledger are exact; they are shown in dollars.
 */
import type { Pricing, Quote } from './api-types.js';

export const MICRO = 1_000_000;

export function toMicro(usd: number): number {
  return Math.round(usd * MICRO);
}
export function fromMicro(micro: number): number {
  return micro / MICRO;
}

export function usageMicro(pricing: Pricing, seconds: number, enabledOptions: readonly string[] = []): {
  usage: number;
  options: number;
} {
  const minutes = Math.max(0, seconds) / 60;
  const usage = toMicro(pricing.per_minute_usd * minutes);
  let options = 0;
  for (const name of enabledOptions) {
    const option = pricing.options[name];
    if (option) options += toMicro(option.per_minute_usd * minutes);
  }
  return { usage, options };
}

export function quote(modelId: string, pricing: Pricing, seconds: number, enabledOptions: readonly string[] = []): Quote {
  const fee = toMicro(pricing.request_fee_usd);
  const { usage, options } = usageMicro(pricing, seconds, enabledOptions);
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

/** On-device models cost nothing unless an operator's pricing file says otherwise (docs/design.md §3). */
export const FREE_PRICING: Pricing = { currency: 'USD', request_fee_usd: 0, per_minute_usd: 0, options: {} };
