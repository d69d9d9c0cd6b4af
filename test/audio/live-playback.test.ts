import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LivePlayback as LivePlaybackClass } from '../../src-main/app/player/live-playback.js';
import type { LiveBridgeEvent } from '../../src-main/common/desktop-bridge.js';
import { GOOD_KEY, startLive, type Harness } from '../helpers/live-harness.js';
import { REC_RATE, audibleSeconds, audibleSpan, startPulse, type Pulse } from './pulse.js';

let pulse: Pulse;
let h: Harness;
let LivePlayback: typeof LivePlaybackClass;

beforeAll(async () => {
  pulse = startPulse();
  Object.assign(process.env, { HOME: pulse.env.HOME, XDG_RUNTIME_DIR: pulse.env.XDG_RUNTIME_DIR, PULSE_SERVER: pulse.env.PULSE_SERVER });
  ({ LivePlayback } = await import('../../src-main/app/player/live-playback.js'));
  h = await startLive();
});
afterAll(async () => {
  await h?.close();
  pulse?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const serviceUrl = () => h.url('').replace(/^ws/, 'http').replace(/\/v1\/.*$/, '');

describe('live playback: WebSocket session → naudiodon → PulseAudio', () => {
  it('two queued speaks play whole, one after the other, without overlap', async () => {
    const rec = pulse.record();
    await rec.firstDataAt();
    await sleep(200);
    const playback = await LivePlayback.open({ serviceUrl: serviceUrl(), apiKey: GOOD_KEY, modelId: 'espeak-ng' });
    expect(playback.sampleRate).toBe(22050);
    const events: LiveBridgeEvent[] = [];
    playback.on('event', (e) => events.push(e));
    playback.speak('First sentence is here.');
    playback.speak('And the second one follows.');
    while (events.filter((e) => e.type === 'done').length < 2) await sleep(20);
    const samples = events.reduce((a, e) => a + (e.type === 'audio' ? e.samples : 0), 0);
    await sleep(samples / 22050 * 1000 + 800);
    const x = await rec.stop();
    await playback.close();
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    const span = audibleSpan(x)!;
    const sent = samples / 22050;
    // Both speeches, played in sequence: from the first sound to the last as long as the audio sent (leading and
    // trailing silence aside) — overlapping, they would take less; an underrun on a busy machine only adds silence.
    expect((span.last - span.first) / REC_RATE).toBeGreaterThan(sent - 0.6);
    // Never more sound than was sent (10 ms windows with sound: silence an underrun inserts does not count).
    expect(audibleSeconds(x, REC_RATE)).toBeLessThan(sent + 0.1);
  });

  it('a refused session rejects with the service error code; cancel silences', async () => {
    await expect(LivePlayback.open({ serviceUrl: serviceUrl(), apiKey: 'wrong', modelId: 'espeak-ng' })).rejects.toMatchObject({ code: 'unauthorized' });
    const playback = await LivePlayback.open({ serviceUrl: serviceUrl(), apiKey: GOOD_KEY, modelId: 'espeak-ng', speed: 0.7 });
    const events: LiveBridgeEvent[] = [];
    playback.on('event', (e) => events.push(e));
    playback.speak('This is a long sentence that will be cut off by a cancel long before it is over, truly it will.');
    while (!events.some((e) => e.type === 'audio')) await sleep(10);
    await sleep(300);
    const rec = pulse.record();
    await rec.firstDataAt();
    playback.cancel();
    while (!events.some((e) => e.type === 'done')) await sleep(10);
    expect(events.find((e) => e.type === 'done')).toEqual({ type: 'done', cancelled: true });
    // Record long enough that speech going on after the cancel would show.
    await sleep(3500);
    const x = await rec.stop();
    // The speech would last ~8 s; after cancel only what the sound server already held is heard: the player's
    // maxAheadMs (200 ms) plus the server's own latency, which PulseAudio raises after underruns on a busy machine
    // (measured 0.5–1.6 s on the shared 2-core box). Counted as sound (10 ms windows), not as where the last sound
    // fell: a server slowed down by a busy machine may play the same little late.
    expect(audibleSeconds(x, REC_RATE)).toBeLessThan(2.0);
    await playback.close();
  });
});
