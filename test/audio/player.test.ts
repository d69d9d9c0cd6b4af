import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdaptiveJitter } from '../../src-main/app/player/adaptive-jitter.js';
import type { createPlayer as createPlayerFn, listOutputDevices as listOutputDevicesFn } from '../../src-main/app/player/player.js';
import type { loadNaudiodon as loadNaudiodonFn } from '../../src-main/app/player/naudiodon-loader.js';
import type { Player } from '../../src-main/app/player/player-types.js';
import { EspeakSynth } from '../../src-main/engines/tts/espeak-synth.js';
import { resampleMono } from '../../src-main/engines/audio/resample.js';
import { follow, locateExact, noise } from './compare.js';
import { REC_RATE, audibleRms, audibleSeconds, audibleSpan, startPulse, type Pulse } from './pulse.js';

let pulse: Pulse;
let createPlayer: typeof createPlayerFn;
let listOutputDevices: typeof listOutputDevicesFn;
let loadNaudiodon: typeof loadNaudiodonFn;

beforeAll(async () => {
  pulse = startPulse();
  // PortAudio's ALSA→Pulse plugin reads these when naudiodon loads and opens a stream.
  Object.assign(process.env, { HOME: pulse.env.HOME, XDG_RUNTIME_DIR: pulse.env.XDG_RUNTIME_DIR, PULSE_SERVER: pulse.env.PULSE_SERVER });
  ({ createPlayer, listOutputDevices } = await import('../../src-main/app/player/player.js'));
  ({ loadNaudiodon } = await import('../../src-main/app/player/naudiodon-loader.js'));
});
afterAll(() => pulse?.stop());

const RATE = 22050;
const ms48 = (n: number) => Math.round((REC_RATE * n) / 1000);
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

/**
 * Records what every player hands to the device (naudiodon's stream writes) until restore(): the player's own output,
 * exact, whatever the sound server does with it afterwards on a busy machine.
 */
function tapDeviceWrites(): { samples(): Float32Array; restore(): void } {
  const lib = loadNaudiodon();
  const original = lib.AudioIO.bind(lib);
  const chunks: Buffer[] = [];
  lib.AudioIO = ((options: { outOptions: Record<string, unknown> }) => {
    const stream = original(options);
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: Uint8Array, ...rest: unknown[]) => {
      chunks.push(Buffer.from(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))); // a copy
      return write(chunk, ...rest);
    }) as typeof stream.write;
    return stream;
  }) as typeof lib.AudioIO;
  return {
    samples() {
      const all = Buffer.concat(chunks);
      return Float32Array.from({ length: all.length >> 1 }, (_, i) => all.readInt16LE(i * 2) / 32768);
    },
    restore: () => void (lib.AudioIO = original),
  };
}

describe('naudiodon player through PulseAudio null sink', () => {
  // Real time on a shared machine: a busy CPU can starve the device (an underrun: silence inside the sound, which the
  // player reports) or the sound server (the same, unreported). So sound is measured as the 10 ms windows that hold
  // any (audibleSeconds: silence inserted does not count), or sample for sample (follow: only silence may be
  // inserted); never as the span from first to last sound, which an underrun stretches.

  it('plays a tone whole, at full level, and in time', async () => {
    const rec = pulse.record();
    const recStart = await rec.firstDataAt();
    await sleep(200);
    const player = createPlayer({ sampleRate: RATE });
    const errors: unknown[] = [];
    let underruns = 0;
    player.on('error', (e) => errors.push(e));
    player.on('underrun', () => underruns++);
    const writeAt = performance.now();
    await playAll(player, toInt16(tone(1)));
    await sleep(300);
    const x = await rec.stop();
    expect(errors).toEqual([]);
    const span = audibleSpan(x)!;
    expect(span).not.toBeNull();
    // Whole: one second of sound; each gap an underrun opens may split a 10 ms window in two.
    expect(Math.abs(audibleSeconds(x, REC_RATE) - 1)).toBeLessThan(0.03 + 0.02 * underruns);
    // At full level (0.5 peak: 0.35 RMS) where there is sound.
    expect(audibleRms(x, REC_RATE)).toBeGreaterThan(0.3);
    // Onset relative to the first write: the jitter buffer (20 ms) plus device latency, well under half a second.
    const latency = span.first / REC_RATE - (writeAt - recStart) / 1000;
    expect(latency).toBeGreaterThan(-0.05);
    expect(latency).toBeLessThan(0.5);
  });

  it('plays a spoken sentence to its last syllable', async () => {
    const synth = await EspeakSynth.create();
    synth.configure({ voice: 'en-us' });
    // At the sink's rate, so the recording can be compared with what was written sample for sample.
    const speech = await resampleMono(synth.synthesize('The last syllable of this sentence must be heard completely.'), RATE, REC_RATE);
    const sentence = toInt16(speech.subarray(audibleSpan(speech)!.first));
    const rec = pulse.record();
    await rec.firstDataAt();
    await sleep(200);
    await playAll(createPlayer({ sampleRate: REC_RATE }), sentence);
    await sleep(300);
    const x = await rec.stop();
    // Every sample of the sentence, its last syllable included, came back identical and in order, with nothing but
    // silence inserted (after the first 20 ms, which a starting stream loses), and at most a sound server's restart
    // loss after each silence: ~10 ms on a quiet machine, more when a loaded one held the server up (bounded at 40).
    const at = locateExact(x, sentence, ms48(20));
    expect(at).toBeGreaterThanOrEqual(0);
    const { silences, lost, missing } = follow(x, sentence, at, ms48(20), ms48(40));
    expect(missing).toBe(0);
    // (How many silences a busy machine makes is not the player's to say: the sound server runs dry without the
    // player seeing it. Their number is not bounded here; what each may cost is.)
    expect(lost).toBeLessThanOrEqual(silences.length * ms48(40));
  });

  it('stop() silences at once', async () => {
    const rec = pulse.record();
    await rec.firstDataAt();
    await sleep(200);
    const player = createPlayer({ sampleRate: RATE });
    let startedAt = 0;
    player.once('started', () => (startedAt = performance.now()));
    const pcm = toInt16(tone(3));
    for (let i = 0; i < pcm.length; i += 1024) player.write(pcm.subarray(i, i + 1024));
    await sleep(600);
    const ended = new Promise<{ stopped: boolean }>((r) => player.once('ended', r));
    const stoppedAt = performance.now();
    player.stop();
    expect(await ended).toEqual({ stopped: true });
    await sleep(500);
    const x = await rec.stop();
    expect(startedAt).toBeGreaterThan(0);
    // What played until stop() (however long a busy machine made the wait), then at most maxAheadMs (200 ms) plus
    // the sound server's latency: never the rest of the 3 s tone.
    const heard = audibleSeconds(x, REC_RATE);
    expect(heard).toBeGreaterThan(0.3);
    expect(heard).toBeLessThan((stoppedAt - startedAt) / 1000 + 0.4);
  });

  it('lists the output devices right after a player stops (the listing waits for the close, as an open does)', async () => {
    for (let round = 0; round < 5; round++) {
      const player = createPlayer({ sampleRate: RATE });
      player.write(toInt16(tone(0.3)));
      await sleep(60);
      player.stop(); // naudiodon closes the stream on the thread pool from here
      const devices = await listOutputDevices();
      expect(devices.length).toBeGreaterThan(0);
      expect(devices.every((d) => Number.isInteger(d.id) && d.name.length > 0)).toBe(true);
    }
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

describe('adaptive jitter buffer through PulseAudio null sink', () => {
  // At the sink's own rate nothing is resampled, so the recording holds the very samples written. The device itself
  // loses a few ms as a stream starts (measured: up to ~10 ms), hence each segment is compared after its first 20 ms.
  const RATE48 = REC_RATE;
  const ms = (n: number) => Math.round((RATE48 * n) / 1000);

  it('starts the device as soon as the small start target is queued', async () => {
    const jitter = new AdaptiveJitter({ startMs: 20 });
    const player = createPlayer({ sampleRate: RATE48, jitter });
    let started = false;
    player.on('started', () => (started = true));
    const ended = new Promise<void>((r) => player.once('ended', () => r()));
    player.write(noise(ms(10), 1));
    expect(started).toBe(false);
    player.write(noise(ms(15), 2));
    expect(started).toBe(true);
    player.end();
    await ended;
    expect(jitter.underruns).toBe(0);
    expect(jitter.targetMs).toBe(20);
  });

  it('grows after an underrun, holds audio until the new target, and plays every sample, identical and in order', async () => {
    const fed = tapDeviceWrites();
    const rec = pulse.record();
    await rec.firstDataAt();
    await sleep(200);
    const jitter = new AdaptiveJitter({ startMs: 20, growMs: 40 });
    const player = createPlayer({ sampleRate: RATE48, jitter });
    const underruns: { targetMs: number }[] = [];
    player.on('underrun', (info) => underruns.push(info));
    const errors: unknown[] = [];
    player.on('error', (e) => errors.push(e));
    const first = noise(ms(300), 7);
    const second = noise(ms(300), 99);
    for (let i = 0; i < first.length; i += ms(20)) player.write(first.subarray(i, i + ms(20)));
    // The source falls behind: the device plays the first part out and would run dry.
    await sleep(900);
    // Noticed in time, with audio still to come: the target grew from 20 to 60 ms; the device got silence meanwhile.
    expect(underruns[0]).toEqual({ targetMs: 60 });
    for (let i = 0; i < second.length; i += ms(20)) player.write(second.subarray(i, i + ms(20)));
    const ended = new Promise<{ stopped: boolean }>((r) => player.once('ended', r));
    player.end();
    expect(await ended).toEqual({ stopped: false });
    // The sound server may lag the device on a busy machine: wait (bounded) until the last of the audio was heard.
    const tail = second.length - 64;
    for (let waited = 0; waited < 10_000 && locateExact(rec.peek(), second, tail) < 0; waited += 100) await sleep(100);
    const x = await rec.stop();
    fed.restore();
    expect(errors).toEqual([]);
    // (A loaded machine may add an underrun of its own; each one is reported and counted.)
    expect(jitter.underruns).toBe(underruns.length);
    expect(jitter.targetMs).toBeGreaterThan(55); // it shrinks back only slowly
    const both = new Int16Array(first.length + second.length);
    both.set(first);
    both.set(second, first.length);
    // The player's own promise, exact: what it handed to the device is both parts, every sample identical and in
    // order, with nothing but silence inserted — the long gap where the source fell behind (≥ 500 ms).
    const handed = fed.samples();
    const exact = follow(handed, both, locateExact(handed, first, 0), 0, 0);
    expect(exact.missing).toBe(0);
    expect(exact.lost).toBe(0);
    expect(Math.max(...exact.silences)).toBeGreaterThanOrEqual(ms(500));
    // And the sound server played it: both parts come back sample for sample from their 20th ms (the server loses a
    // few ms restarting a stream that ran dry), the second after the first and after that gap. (Sample for sample
    // across the gap is the player's promise above; under load the server's own underruns may cut in elsewhere.)
    const firstAt = locateExact(x, first, ms(20));
    const secondAt = locateExact(x, second, ms(20));
    expect(firstAt).toBeGreaterThanOrEqual(0);
    expect(secondAt).toBeGreaterThanOrEqual(firstAt + first.length + ms(500) - ms(20));
    expect(follow(x, first, firstAt, ms(20), ms(12)).missing).toBe(0);
    expect(follow(x, second, secondAt, ms(20), ms(12)).missing).toBe(0);
  });
});
