/** The price shown before the click (src-renderer/src/shared/money/price-quote.svelte.ts) against a real service. */
import { afterEach, describe, expect, it } from 'vitest';
import { PriceQuote } from '../../../../../src-renderer/src/shared/money/price-quote.svelte.js';
import { until, useConnectedApp } from '../../../../helpers/renderer-host.js';

const ctx = useConnectedApp({ workers: 1 });

describe('PriceQuote', () => {
  let price: PriceQuote | undefined;
  afterEach(() => price?.dispose());

  it('prices once the typing pauses from the catalogue record, as the service quotes it; only the latest request counts', async () => {
    let asked = 0;
    const api = ctx.app.api;
    const counting = { api: Object.assign(Object.create(api) as typeof api, { getModel: (...args: Parameters<typeof api.getModel>) => (asked++, api.getModel(...args)) }) };
    price = new PriceQuote(counting, 50);
    price.request('test-asr', 10);
    price.request('test-asr', 60);
    price.request('test-asr', 120);
    await until(() => price!.quote !== null, 'the quote');
    expect(asked).toBe(1);
    expect(price.quote).toEqual(await api.quote('test-asr', 120));
    expect(price.quote!.usage_usd).toBeCloseTo(0.012, 6); // 2 minutes at $0.006
    expect(price.hosted).toBe(false);
  });

  it('prices a batch as one fee plus each item, and priced options switched on in the params', async () => {
    price = new PriceQuote(ctx.app, 10);
    price.request('test-asr', [[30, 90, null]], { speaker_diarization: true });
    await until(() => price!.quote?.seconds === 120, 'the batch quote');
    const one = await ctx.app.api.quote('test-asr', 30, ['speaker_diarization']);
    const two = await ctx.app.api.quote('test-asr', 90, ['speaker_diarization']);
    expect(price.quote).toMatchObject({ request_fee_usd: 0.05, total_usd: Math.round((one.total_usd + two.total_usd - 0.05) * 1e6) / 1e6 });
    price.request('test-asr', [[60], [60]]);
    await until(() => price!.quote?.request_fee_usd === 0.1, 'two requests, two fees');
  });

  it('clears the price when the service cannot quote', async () => {
    price = new PriceQuote(ctx.app, 10);
    price.request('test-asr', 30);
    await until(() => price!.quote !== null, 'the quote');
    price.request('no-such-model', 30);
    await until(() => price!.quote === null, 'the price to clear');
  });
});
