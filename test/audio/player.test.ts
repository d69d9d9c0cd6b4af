import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createPlayer as createPlayerFn } from '../../src-main/app/player/player.js';
import type { Player } from '../../src-main/app/player/player-types.js';
import { EspeakSynth } from '../../src-main/engines/tts/espeak-synth.js';
import { REC_RATE, audibleSeconds, audibleSpan, rms, startPulse, type Pulse } from './pulse.js';

let pulse: Pulse;
let createPlayer: typeof createPlayerFn;

beforeAll(async () => {
  pulse = startPulse();
  // PortAudio's ALSA→Pulse plugin reads these when naudiodon loads and opens a stream.
  Object.assign(process.env, { HOME: pulse.env.HOME, XDG_RUNTIME_DIR: pulse.env.XDG_RUNTIME_DIR, PULSE_SERVER: pulse.env.PULSE_SERVER });
  ({ createPlayer } = await import('../../src-main/app/player/player.js'));
});
afterAll(() => pulse?.stop());

const RATE = 22050;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function toInt16(x: Float32Array): Int16Array {
  return Int16Array.from(x, (s) => Math.max(-32768, Math.min(32767, Math.round(s * 32768))));
}
function tone(seconds: number, freq = 440, amp = 0.5): Float32Array {
  return Float32Array.from({ length: Math.round(RATE * seconds) }, (_, i) => amp * Math.sin((2 * Math.PI * freq * i) / RATE));
}

/** Plays in 1024-sample writes paced a little faster than real time (like a live stream), then end(). */
async function playAll(player: Player, pcm: Int16Array): Promise<void> {
  const ended = new Promise<void>((resolve) => player.once('ended', () => resolve()));
  for (let i = 0; i < pcm.length; i += 1024) {
    if (!player.write(pcm.subarray(i, i + 1024))) await new Promise<void>((r) => player.once('drain', () => r()));
  }
  player.end();
  await ended;
}

describe('naudiodon player through PulseAudio null sink', () => {
  it('plays a tone whole, at full level, and in time', async () => {
    const rec = pulse.record();
    const recStart = await rec.firstDataAt();
    await sleep(200);
    const player = createPlayer({ sampleRate: RATE });
    const errors: unknown[] = [];
    player.on('error', (e) => errors.push(e));
    const writeAt = performance.now();
    await playAll(player, toInt16(tone(1)));
    await sleep(300);
    const x = await rec.stop();
    expect(errors).toEqual([]);
    const span = audibleSpan(x)!;
    expect(span).not.toBeNull();
    const seconds = (span.last - span.first) / REC_RATE;
    expect(Math.abs(seconds - 1)).toBeLessThan(0.03);
    expect(rms(x, span.first + REC_RATE * 0.1, span.first + REC_RATE * 0.9)).toBeGreaterThan(0.3);
    // Onset relative to the first write: the jitter buffer (60 ms) plus device latency, well under half a second.
    const latency = span.first / REC_RATE - (writeAt - recStart) / 1000;
    expect(latency).toBeGreaterThan(-0.05);
    expect(latency).toBeLessThan(0.5);
  });

  it('plays a spoken sentence to its last syllable', async () => {
    const synth = await EspeakSynth.create();
    synth.configure({ voice: 'en-us' });
    const speech = synth.synthesize('The last syllable of this sentence must be heard completely.');
    const source = audibleSpan(speech)!;
    const rec = pulse.record();
    await rec.firstDataAt();
    await sleep(200);
    await playAll(createPlayer({ sampleRate: RATE }), toInt16(speech));
    await sleep(300);
    const x = await rec.stop();
    const span = audibleSpan(x)!;
    const expected = (source.last - source.first) / RATE;
    // Nothing cut: the span reaches the end of the sentence, and every moment of sound was heard (counted in 10 ms
    // windows, so an underrun on a loaded machine — silence inside the sentence — is not mistaken for a cut).
    expect((span.last - span.first) / REC_RATE).toBeGreaterThan(expected - 0.05);
    expect(Math.abs(audibleSeconds(x, REC_RATE) - audibleSeconds(speech, RATE))).toBeLessThan(0.06);
  });

  it('stop() silences at once', async () => {
    const rec = pulse.record();
    await rec.firstDataAt();
    await sleep(200);
    const player = createPlayer({ sampleRate: RATE });
    const pcm = toInt16(tone(3));
    for (let i = 0; i < pcm.length; i += 1024) player.write(pcm.subarray(i, i + 1024));
    await sleep(600);
    const ended = new Promise<{ stopped: boolean }>((r) => player.once('ended', r));
    player.stop();
    expect(await ended).toEqual({ stopped: true });
    await sleep(500);
    const x = await rec.stop();
    const span = audibleSpan(x)!;
    // 0.6 s played, then at most maxAheadMs (200 ms) plus the sound server's latency.
    expect((span.last - span.first) / REC_RATE).toBeLessThan(0.6 + 0.4);
  });

  it('a missing device is a typed error event, not a crash', async () => {
    const player = createPlayer({ sampleRate: RATE, deviceId: 4242 });
    const error = await new Promise<{ code: string; message: string }>((r) => player.once('error', r));
    expect(error.code).toBe('device_unavailable');
    expect(player.write(new Int16Array(10))).toBe(false);
    const bad = createPlayer({ sampleRate: 1 });
    expect(await new Promise<{ code: string }>((r) => bad.once('error', r))).toMatchObject({ code: 'invalid_audio' });
  });
});
