/**
 * The Speak tab's requests (src-renderer/src/speak/speech-requests.svelte.ts) against a real service with the page's
 * AppState as host: a single text, a batch of lines, Cancel while the held POST has not answered (the job is stopped
 * on the service too), plain-words errors.
 */
import { describe, expect, it } from 'vitest';
import { SpeechRequests } from '../../../../src-renderer/src/speak/speech-requests.svelte.js';
import { until, useConnectedApp } from '../../../helpers/renderer-host.js';

const ctx = useConnectedApp({ workers: 2, holdSeconds: 30 });

describe('SpeechRequests', () => {
  it('speaks one text: the held POST answers with the finished job and its audio', async () => {
    const requests = new SpeechRequests(ctx.app);
    await requests.submit({ modelId: 'test-tts', text: 'Hello there.', params: { artifact: true }, lines: null });
    expect(requests.error).toBeNull();
    expect(requests.busy).toBe(false);
    expect(requests.current).toMatchObject({ status: 'succeeded', name: 'Hello there.', model_id: 'test-tts' });
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

  it('Cancel before the held POST answers also cancels the job on the service', async () => {
    const requests = new SpeechRequests(ctx.app);
    const done = requests.submit({ modelId: 'test-tts', text: 'A slow one to cancel.', params: { behaviour: 'sleep', ms: 20_000 }, lines: null });
    await until(() => ctx.app.jobs.some((j) => j.name === 'A slow one to cancel.' && j.status === 'running'), 'the job to run');
    requests.cancel();
    await done;
    expect(requests.error).toBeNull(); // an abort the person asked for is no error
    expect(requests.busy).toBe(false);
    await until(() => ctx.app.jobs.find((j) => j.name === 'A slow one to cancel.')?.status === 'cancelled', 'the job to be cancelled');
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
