/**
 * The one price formula (common/pricing.ts): the charges of a success, quotes and estimates are the same numbers,
 * a request's usage rounded to the micro-dollar once on its total (a batch's too), texts priced by their code points.
 */
import { describe, expect, it } from 'vitest';
import type { Pricing } from '../../../src-main/common/api-types.js';
import { chargesFor, enabledOptions, estimateMicro, itemsQuote, quote, sumMicro, textSeconds, toMicro, usageMicro } from '../../../src-main/common/pricing.js';

const PRICE: Pricing = { currency: 'USD', request_fee_usd: 0.05, per_minute_usd: 0.006, options: { speaker_diarization: { per_minute_usd: 0.0075 } } };

describe('pricing', () => {
  it('a success is charged the rows a quote adds up, for any seconds', () => {
    for (const seconds of [0, 0.001, 1, 3.308, 59.999, 60, 83.457, 3600, 7201.5]) {
      for (const options of [[], ['speaker_diarization']]) {
        const charges = chargesFor(PRICE, seconds, options);
        const q = quote('m', PRICE, seconds, options);
        expect(sumMicro(charges)).toBe(toMicro(q.total_usd));
        expect(charges.map((c) => c.kind)).toEqual(['request_fee', 'usage', ...options.map(() => 'option')]);
        expect(toMicro(q.request_fee_usd) + toMicro(q.usage_usd) + toMicro(q.options_usd)).toBe(toMicro(q.total_usd));
        expect(estimateMicro(PRICE, [seconds], options)).toBe(sumMicro(charges));
      }
    }
    expect(chargesFor(PRICE, 90, [], false)).toEqual([{ kind: 'usage', option_name: '', amount_usd_micro: 9000 }]);
    expect(usageMicro(PRICE, 90, ['speaker_diarization'])).toEqual({ usage: 9000, options: 11_250 });
  });

  it('estimates a batch as one fee plus each item, unknown lengths adding nothing', () => {
    expect(estimateMicro(PRICE, [60, 30, null])).toBe(50_000 + 6000 + 3000);
    expect(estimateMicro(PRICE, [null], [], false)).toBe(0);
  });

  it('charges batch items their share of the total rounded once: the rows add up to the quote of all the seconds', () => {
    // 1.004 s at $0.006 a minute is 100.4 micro-dollars: rounded per item, 50 items would be 5,000; the total is 5,020.
    const items = Array.from({ length: 50 }, () => 1.004);
    let charged = 0;
    let usage = 0;
    let options = 0;
    for (const seconds of items) {
      const rows = chargesFor(PRICE, seconds, ['speaker_diarization'], false, charged);
      usage += rows.find((r) => r.kind === 'usage')!.amount_usd_micro;
      options += rows.find((r) => r.kind === 'option')!.amount_usd_micro;
      charged += seconds;
    }
    expect(usage).toBe(5020);
    expect(usage).not.toBe(50 * usageMicro(PRICE, 1.004).usage);
    const q = itemsQuote('m', PRICE, items, ['speaker_diarization']);
    expect(toMicro(q.usage_usd)).toBe(usage);
    expect(toMicro(q.options_usd)).toBe(options);
    expect(q).toEqual(quote('m', PRICE, 50.2, ['speaker_diarization']));
    expect(estimateMicro(PRICE, items, ['speaker_diarization'])).toBe(50_000 + usage + options);
  });

  it('prices texts by code points at 15 a second, and finds the priced options switched on', () => {
    expect(textSeconds('a'.repeat(30))).toBe(2);
    expect(textSeconds('😀😀😀')).toBe(0.2);
    expect(enabledOptions(PRICE, { speaker_diarization: true })).toEqual(['speaker_diarization']);
    expect(enabledOptions(PRICE, { speaker_diarization: 'yes', other: true })).toEqual([]);
  });
});
