/**
 * The Speak tab's requests (src-renderer/src/speak/speech-requests.svelte.ts) against a real service with the page's
 * AppState as host: a single text (answered at once, followed by the poller), a batch of lines, Cancel by the job's id
 * (also when pressed before the service answered), plain-words errors.
 */
import { describe, expect, it } from 'vitest';
import { SpeechRequests } from '../../../../src-renderer/src/speak/speech-requests.svelte.js';
import { until, useConnectedApp } from '../../../helpers/renderer-host.js';

const ctx = useConnectedApp({ workers: 2, holdSeconds: 30 });
const SLOW = { behaviour: 'sleep', ms: 20_000 };

describe('SpeechRequests', () => {
  it('speaks one text: answered at once with its job, which the poller follows to its audio', async () => {
    const requests = new SpeechRequests(ctx.app);
    await requests.submit({ modelId: 'test-tts', text: 'Hello there.', params: { artifact: true }, lines: null });
    expect(requests.error).toBeNull();
    expect(requests.current).toMatchObject({ name: 'Hello there.', model_id: 'test-tts' });
    await until(() => requests.current?.status === 'succeeded', 'the job to finish');
    expect(requests.busy).toBe(false);
    expect(requests.current?.result?.artifacts?.[0]?.url).toMatch(/^http/);
    expect(requests.batch).toBeUndefined();
  });

  it('speaks lines as one batch, followed through the poller', async () => {
    const requests = new SpeechRequests(ctx.app);
    await requests.submit({ modelId: 'test-tts', text: 'one\ntwo\nthree', params: {}, lines: ['one', 'two', 'three'] });
    expect(requests.current).toBeNull();
    await until(() => requests.batch?.status === 'complete', 'the batch');
    expect(requests.batch).toMatchObject({ file_count: 3, succeeded: 3 });
    expect(requests.batch?.files.map((f) => f.name)).toEqual(['Line 1', 'Line 2', 'Line 3']);
  });

  it('Cancel stops its own job on the service, not another sent with the same words', async () => {
    const requests = new SpeechRequests(ctx.app);
    await requests.submit({ modelId: 'test-tts', text: 'A slow one to cancel.', params: SLOW, lines: null });
    expect(requests.busy).toBe(true); // its job is queued or running
    const twin = await ctx.app.api.speak({ model: 'test-tts', text: 'A slow one to cancel.', params: SLOW, name: 'A slow one to cancel.' }, { wait: false });
    requests.cancel();
    await until(() => requests.current?.status === 'cancelled', 'the job to be cancelled');
    expect(requests.busy).toBe(false);
    expect(requests.error).toBeNull(); // a cancel the person asked for is no error
    expect((await ctx.app.api.getJob('text-to-speech', twin.id)).status).not.toBe('cancelled');
    await ctx.app.api.cancelJob('text-to-speech', twin.id); // free the worker
  });

  it('Cancel pressed before the service answered cancels the job as soon as it is named', async () => {
    const requests = new SpeechRequests(ctx.app);
    const sent = requests.submit({ modelId: 'test-tts', text: 'Cancelled on the way.', params: SLOW, lines: null });
    requests.cancel();
    await sent;
    await until(() => requests.current?.status === 'cancelled', 'the job to be cancelled');
    expect(requests.busy).toBe(false);
  });

  it('explains what is wrong in plain words', async () => {
    const requests = new SpeechRequests(ctx.app);
    await requests.submit({ modelId: 'test-tts', text: '   ', params: {}, lines: null });
    expect(requests.error).toBe('Type some text first.');
    await requests.submit({ modelId: 'test-tts', text: 'x'.repeat(201), params: {}, lines: null }); // over its 200 characters
    expect(requests.error).toBe('The text is longer than this model accepts. Split it into shorter parts.');
    await requests.submit({ modelId: 'test-tts', text: 'Hello.', params: { nonsense: 1 }, lines: null });
    expect(requests.error).toBe('This model does not accept one of the options.');
  });
});
