import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_ORIGIN, GOOD_KEY, LiveClient, refusedUpgrade, startLive, type Harness } from '../../../helpers/live-harness.js';
import { scaled } from '../../../helpers/time-scale.js';

let h: Harness;
beforeAll(async () => {
  // 20 sessions at once below: more than one account may open by default.
  h = await startLive({ speechMaxSessionsPerAccount: 32 });
});
afterAll(async () => {
  await h.close();
});

const LONG = Array.from({ length: 40 }, (_, i) => `This is sentence number ${i + 1} of a fairly long text that goes on.`).join(' ');

/**
 * The usage of `seconds` at the harness's $0.00333 a minute, as every charge counts it (common/pricing.ts): in whole
 * milliseconds, rounded once. Not `seconds` as a float: a third of a second (5 frames of "Two.") is 18.5 µ$ that way,
 * 18.48 µ$ in milliseconds.
 */
const usageMicro = (seconds: number): number => Math.round((0.00333 * 1e6 * Math.round(seconds * 1000)) / 60_000);

function audioBetween(client: LiveClient, from: number, to: number): number[] {
  return client.received.slice(from, to).flatMap((r) => (r.kind === 'audio' ? [r.bytes] : []));
}

describe('live text to speech: protocol', () => {
  it('session.created, session.update, speak → response.created, fixed-size frames, response.done in order', async () => {
    const c = await LiveClient.open(h.url('model=espeak-ng'));
    const created = await c.waitFor('session.created');
    expect(created.session).toMatchObject({ model: 'espeak-ng', sample_rate: 22050, format: 'pcm_s16le', channels: 1, speed: 1, frame_samples: 1024 });
    c.send({ type: 'session.update', session: { speed: 1.5 } });
    expect((await c.waitFor('session.updated')).session).toMatchObject({ speed: 1.5 });
    c.send({ type: 'speak', text: 'Hello there. This is a live test of the speech service!' });
    const done = await c.waitFor('response.done');
    const types = c.received.map((r) => (r.kind === 'json' ? String(r.value.type) : 'audio'));
    const createdAt = types.indexOf('response.created');
    const doneAt = types.indexOf('response.done');
    expect(createdAt).toBeGreaterThan(types.indexOf('session.updated'));
    const frames = audioBetween(c, createdAt, doneAt);
    expect(frames.length).toBeGreaterThan(10);
    expect(types.slice(doneAt + 1)).not.toContain('audio');
    // Every frame is 1024 samples (2048 bytes) except possibly the last.
    expect(frames.slice(0, -1).every((b) => b === 2048)).toBe(true);
    expect(frames.at(-1)!).toBeLessThanOrEqual(2048);
    const samples = frames.reduce((a, b) => a + b, 0) / 2;
    expect(done).toMatchObject({ cancelled: false, samples, response_id: c.json()[2]!.response_id });
    expect(done.audio_seconds).toBeCloseTo(samples / 22050, 5);
    c.close();
  });

  it('speed changes the length of the audio', async () => {
    const c = await LiveClient.open(h.url('model=espeak-ng'));
    c.send({ type: 'speak', text: 'The quick brown fox jumps over the lazy dog.' });
    const normal = (await c.waitFor('response.done')).samples as number;
    c.send({ type: 'session.update', session: { speed: 2 } });
    c.send({ type: 'speak', text: 'The quick brown fox jumps over the lazy dog.' });
    const fast = (await c.waitFor('response.done')).samples as number;
    expect(fast).toBeLessThan(normal * 0.7);
    c.close();
  });

  it('bad messages get error events and the socket stays open', async () => {
    const c = await LiveClient.open(h.url('model=espeak-ng'));
    await c.waitFor('session.created');
    const cases: [unknown, string][] = [
      ['{not json', 'invalid_json'],
      ['[1,2]', 'invalid_json'],
      [{ type: 'dance' }, 'unknown_message_type'],
      [{ type: 'speak' }, 'text_required'],
      [{ type: 'speak', text: '   ' }, 'text_required'],
      [{ type: 'speak', text: 'x'.repeat(5001) }, 'text_too_long'],
      [{ type: 'session.update', session: { speed: 5 } }, 'invalid_params'],
      [{ type: 'session.update', session: { speed: 'fast' } }, 'invalid_params'],
      [{ type: 'session.update' }, 'invalid_params'],
    ];
    for (const [message, code] of cases) {
      c.send(message);
      const error = await c.waitFor('error');
      expect(error.error).toMatchObject({ code });
      expect(typeof (error.error as { message: string }).message).toBe('string');
    }
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await c.waitFor('error')).error).toMatchObject({ code: 'invalid_json' });
    c.send({ type: 'speak', text: 'Still here.' });
    expect((await c.waitFor('response.done')).samples).toBeGreaterThan(0);
    c.close();
  });

  it('speed on a model without speed is unsupported_param', async () => {
    const c = await LiveClient.open(h.url('model=no-speed'));
    c.send({ type: 'session.update', session: { speed: 1.2 } });
    expect((await c.waitFor('error')).error).toMatchObject({ code: 'unsupported_param' });
    c.close();
  });

  it('cancel stops the current speak and clears the queue; the session goes on', async () => {
    const c = await LiveClient.open(h.url('model=espeak-ng'));
    c.send({ type: 'speak', text: LONG });
    c.send({ type: 'speak', text: 'Queued one.' });
    c.send({ type: 'speak', text: 'Queued two.' });
    while (!c.received.some((r) => r.kind === 'audio')) await new Promise((r) => setTimeout(r, 5));
    c.send({ type: 'cancel' });
    const dones = [await c.waitFor('response.done'), await c.waitFor('response.done'), await c.waitFor('response.done')];
    expect(dones.map((d) => d.cancelled)).toEqual([true, true, true]);
    expect(dones[0]!.samples as number).toBeLessThan(22050 * 30);
    expect(dones[1]!.samples).toBe(0);
    c.send({ type: 'speak', text: 'After the cancel.' });
    const after = await c.waitFor('response.done');
    expect(after).toMatchObject({ cancelled: false });
    expect(after.samples).toBeGreaterThan(0);
    c.close();
  });

  it('charges: the request fee once per session, usage per speak by the audio sent', async () => {
    const before = h.charges.length;
    const c = await LiveClient.open(h.url('model=espeak-ng'));
    c.send({ type: 'speak', text: 'One.' });
    const a = await c.waitFor('response.done');
    c.send({ type: 'speak', text: 'Two.' });
    const b = await c.waitFor('response.done');
    const rows = h.charges.slice(before);
    expect(rows.map((r) => r.kind)).toEqual(['request_fee', 'usage', 'usage']);
    expect(rows[0]).toMatchObject({ account_id: 'acct_1', model_id: 'espeak-ng', job_id: null, batch_id: null, amount_usd_micro: 50_000 });
    expect(rows[1]!.seconds).toBeCloseTo(a.audio_seconds as number, 5);
    // Charged for the seconds it recorded (the message's audio_seconds is those seconds, rounded for the wire).
    expect(rows[2]!.seconds).toBeCloseTo(b.audio_seconds as number, 3);
    expect(rows[2]!.amount_usd_micro).toBe(usageMicro(rows[2]!.seconds));
    c.close();
  });
});

describe('live text to speech: a speak cut short is charged (trust review 2, item 8)', () => {
  it('a client that closes before response.done is charged the request fee and the audio it was sent', async () => {
    // The review: one speak dropped after 80 ms had already received 24.2 s of audio, and the ledger did not move.
    const before = h.charges.length;
    const c = await LiveClient.open(h.url('model=espeak-ng'));
    c.send({ type: 'speak', text: LONG });
    await expect.poll(() => c.received.filter((r) => r.kind === 'audio').length, { timeout: scaled(30_000) }).toBeGreaterThan(20);
    c.close();
    const receivedSeconds = c.received.reduce((n, r) => n + (r.kind === 'audio' ? r.bytes / 2 : 0), 0) / 22_050;
    await expect.poll(() => h.charges.length - before, { timeout: scaled(10_000) }).toBe(2);
    const [fee, usage] = h.charges.slice(before);
    expect(fee).toMatchObject({ kind: 'request_fee', account_id: 'acct_1', amount_usd_micro: 50_000 });
    expect(usage).toMatchObject({ kind: 'usage', account_id: 'acct_1' });
    // What was handed to the socket, at least what this client read before it left.
    expect(usage!.seconds).toBeGreaterThanOrEqual(receivedSeconds - 1e-6);
    expect(usage!.amount_usd_micro).toBe(usageMicro(usage!.seconds));
  });
});

describe('live text to speech: admission before the upgrade', () => {
  it('401 without a key or with a wrong key; api_key query works', async () => {
    expect(await refusedUpgrade(h.url('model=espeak-ng'))).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    expect(await refusedUpgrade(h.url('model=espeak-ng'), { authorization: 'Bearer nope' })).toMatchObject({ status: 401 });
    expect(await refusedUpgrade(h.url('model=espeak-ng&api_key=nope'))).toMatchObject({ status: 401 });
    const c = await LiveClient.open(h.url(`model=espeak-ng&api_key=${GOOD_KEY}`), {});
    await c.waitFor('session.created');
    c.close();
  });

  it('403 for a foreign origin; allowed and absent origins pass', async () => {
    const auth = { authorization: `Bearer ${GOOD_KEY}` };
    expect(await refusedUpgrade(h.url('model=espeak-ng'), { ...auth, origin: 'https://evil.example' })).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden_origin' } },
    });
    const c = await LiveClient.open(h.url('model=espeak-ng'), { ...auth, origin: ALLOWED_ORIGIN });
    await c.waitFor('session.created');
    c.close();
  });

  it('model checks: missing 400, unknown 404, not live / not TTS 422, bad voice 400', async () => {
    const auth = { authorization: `Bearer ${GOOD_KEY}` };
    expect(await refusedUpgrade(h.url(''), auth)).toMatchObject({ status: 400, body: { error: { code: 'model_required' } } });
    expect(await refusedUpgrade(h.url('model=nope'), auth)).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect(await refusedUpgrade(h.url('model=not-live'), auth)).toMatchObject({ status: 422, body: { error: { code: 'model_unavailable' } } });
    expect(await refusedUpgrade(h.url('model=stt-model'), auth)).toMatchObject({ status: 422 });
    expect(await refusedUpgrade(h.url('model=espeak-ng&voice=klingon'), auth)).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    expect(await refusedUpgrade(h.url('model=tiny-vits&speaker=7'), auth)).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
  });

  it('a voice and a speaker variant can be chosen in the query', async () => {
    const c = await LiveClient.open(h.url('model=espeak-ng&voice=fr&speaker=f2'));
    c.send({ type: 'speak', text: 'Bonjour.' });
    expect((await c.waitFor('response.done')).samples).toBeGreaterThan(0);
    c.close();
  });
});

describe('live text to speech: neural voice in a child process', () => {
  it('tiny-vits streams exactly the README sample count', async () => {
    const c = await LiveClient.open(h.url('model=tiny-vits&speaker=1'));
    expect((await c.waitFor('session.created')).session).toMatchObject({ sample_rate: 22050 });
    c.send({ type: 'speak', text: 'hello world' });
    expect(await c.waitFor('response.done')).toMatchObject({ samples: 23552, cancelled: false });
    c.send({ type: 'session.update', session: { speed: 2 } });
    c.send({ type: 'speak', text: 'hello world' });
    expect(await c.waitFor('response.done')).toMatchObject({ samples: 11776 });
    // No known word: an error event for the speak, then its response.done; the session goes on.
    c.send({ type: 'speak', text: 'qzxv wprrt' });
    expect(await c.waitFor('response.done')).toMatchObject({ samples: 0 });
    c.send({ type: 'speak', text: 'hello world' });
    expect(await c.waitFor('response.done')).toMatchObject({ samples: 11776 });
    c.close();
  });
});

describe('live text to speech: load', () => {
  it('back-pressure: a client that does not read stops synthesis; it all arrives once it reads', async () => {
    const c = await LiveClient.open(h.url('model=espeak-ng'));
    await c.waitFor('session.created');
    c.ws.pause();
    c.send({ type: 'speak', text: LONG.repeat(2).slice(0, 5000) });
    // Synthesis stops once the unsent bytes pass the bound: two reads a second apart agree (a loaded machine may
    // take a while to get there; a server without back-pressure would go on to the whole text).
    const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 1000));
    const deadline = Date.now() + 60_000;
    const speaking = () => h.live.sessions().find((s) => s.queuedSpeaks === 1);
    while (!speaking() && Date.now() < deadline) await pause();
    const id = speaking()!.id;
    const session = () => h.live.sessions().find((s) => s.id === id)!;
    let first = session();
    let second = first;
    do {
      first = second;
      await pause();
      second = session();
    } while (second.samplesSynthesized !== first.samplesSynthesized && Date.now() < deadline);
    // ~5000 characters is several minutes of audio (>10 MB); the server holds only its bound + kernel buffers.
    expect(second.samplesSynthesized).toBe(first.samplesSynthesized);
    expect(second.samplesSynthesized * 2).toBeLessThan(8 * 1024 * 1024);
    expect(second.bufferedAmount).toBeGreaterThan(0);
    c.ws.resume();
    const done = await c.waitFor('response.done', scaled(120_000));
    expect(done.cancelled).toBe(false);
    expect((done.samples as number) * 2).toBeGreaterThan(second.samplesSynthesized * 2);
    c.close();
  }, scaled(180_000));

  it('20 sessions at once all get their audio', async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, () => LiveClient.open(h.url('model=espeak-ng'))));
    for (const [i, c] of clients.entries()) c.send({ type: 'speak', text: `Session number ${i + 1} speaks.` });
    const dones = await Promise.all(clients.map((c) => c.waitFor('response.done', scaled(60_000))));
    for (const [i, d] of dones.entries()) {
      expect(d.cancelled).toBe(false);
      const audio = clients[i]!.received.filter((r) => r.kind === 'audio').reduce((a, r) => a + (r.kind === 'audio' ? r.bytes : 0), 0);
      expect(d.samples).toBe(audio / 2);
      expect(d.samples as number).toBeGreaterThan(10_000);
    }
    expect(h.live.sessions().length).toBeGreaterThanOrEqual(20);
    for (const c of clients) c.close();
  }, scaled(120_000));
});
