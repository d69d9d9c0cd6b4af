/**
 * The Speak tab's requests and price (src-renderer/src/lib/speech-requests.svelte.ts, price-quote.svelte.ts) against
 * a real service with the page's AppState as host: a single text, a batch of lines, Cancel while the held POST has
 * not answered (the job is stopped on the service too), plain-words errors, a debounced quote.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../../src-renderer/src/lib/app-state.svelte.js';
import { PriceQuote } from '../../../src-renderer/src/lib/price-quote.svelte.js';
import { SpeechRequests } from '../../../src-renderer/src/lib/speech-requests.svelte.js';
import { connectedAppState, until } from '../../helpers/renderer-host.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let svc: TestService;
let app: AppState;

beforeAll(async () => {
  svc = await startTestService({ workers: 2, holdSeconds: 30 });
  app = connectedAppState(svc);
});
afterAll(async () => {
  app?.stopPolling();
  await svc?.stop();
});

describe('SpeechRequests', () => {
  it('speaks one text: the held POST answers with the finished job and its audio', async () => {
    const requests = new SpeechRequests(app);
    await requests.submit({ modelId: 'test-tts', text: 'Hello there.', params: { artifact: true }, lines: null });
    expect(requests.error).toBeNull();
    expect(requests.busy).toBe(false);
    expect(requests.current).toMatchObject({ status: 'succeeded', name: 'Hello there.', model_id: 'test-tts' });
    expect(requests.current?.result?.artifacts?.[0]?.url).toMatch(/^http/);
    expect(requests.batch).toBeUndefined();
  });

  it('speaks lines as one batch, followed through the poller', async () => {
    const requests = new SpeechRequests(app);
    await requests.submit({ modelId: 'test-tts', text: 'one\ntwo\nthree', params: {}, lines: ['one', 'two', 'three'] });
    expect(requests.current).toBeNull();
    await until(() => requests.batch?.status === 'complete', 'the batch');
    expect(requests.batch).toMatchObject({ file_count: 3, succeeded: 3 });
    expect(requests.batch?.files.map((f) => f.name)).toEqual(['Line 1', 'Line 2', 'Line 3']);
  });

  it('Cancel before the held POST answers also cancels the job on the service', async () => {
    const requests = new SpeechRequests(app);
    const done = requests.submit({ modelId: 'test-tts', text: 'A slow one to cancel.', params: { behaviour: 'sleep', ms: 20_000 }, lines: null });
    await until(() => app.jobs.some((j) => j.name === 'A slow one to cancel.' && j.status === 'running'), 'the job to run');
    requests.cancel();
    await done;
    expect(requests.error).toBeNull(); // an abort the person asked for is no error
    expect(requests.busy).toBe(false);
    await until(() => app.jobs.find((j) => j.name === 'A slow one to cancel.')?.status === 'cancelled', 'the job to be cancelled');
  });

  it('explains what is wrong in plain words', async () => {
    const requests = new SpeechRequests(app);
    await requests.submit({ modelId: 'test-tts', text: '   ', params: {}, lines: null });
    expect(requests.error).toBe('Type some text first.');
    await requests.submit({ modelId: 'test-tts', text: 'x'.repeat(201), params: {}, lines: null }); // over its 200 characters
    expect(requests.error).toBe('The text is longer than this model accepts. Split it into shorter parts.');
    await requests.submit({ modelId: 'test-tts', text: 'Hello.', params: { nonsense: 1 }, lines: null });
    expect(requests.error).toBe('This model does not accept one of the options.');
  });
});

describe('PriceQuote', () => {
  let price: PriceQuote | undefined;
  afterEach(() => price?.dispose());

  it('prices once the typing pauses from the catalogue record, as the service quotes it; only the latest request counts', async () => {
    let asked = 0;
    const api = app.api;
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
    price = new PriceQuote(app, 10);
    price.request('test-asr', [[30, 90, null]], { speaker_diarization: true });
    await until(() => price!.quote?.seconds === 120, 'the batch quote');
    const one = await app.api.quote('test-asr', 30, ['speaker_diarization']);
    const two = await app.api.quote('test-asr', 90, ['speaker_diarization']);
    expect(price.quote).toMatchObject({ request_fee_usd: 0.05, total_usd: Math.round((one.total_usd + two.total_usd - 0.05) * 1e6) / 1e6 });
    price.request('test-asr', [[60], [60]]);
    await until(() => price!.quote?.request_fee_usd === 0.1, 'two requests, two fees');
  });

  it('clears the price when the service cannot quote', async () => {
    price = new PriceQuote(app, 10);
    price.request('test-asr', 30);
    await until(() => price!.quote !== null, 'the quote');
    price.request('no-such-model', 30);
    await until(() => price!.quote === null, 'the price to clear');
  });
});
