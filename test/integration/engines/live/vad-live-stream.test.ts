/**
 * The VAD path of live recognition with the real Silero VAD on jfk.wav: utterances become finals at the pauses with
 * times in the session, audio is never given to two finals, partials come only while the model is fast enough, and
 * finish() closes the last utterance. The decoder is a stand-in that records what it is given (the boundary under
 * test is the stream, not a recognizer).
 */
import { describe, expect, it } from 'vitest';
import { createLoadGauge, VadLiveStream } from '../../../../src-main/engines/live/vad-live-stream.js';
import type { LiveUtterance, UtteranceDecoder } from '../../../../src-main/engines/live/live-recognition-types.js';
import { JFK_WAV, pcmOf, SILERO_V5 } from '../../../helpers/dictation-fixtures.js';
import { s16leToFloat } from '../../../../src-main/engines/audio/pcm.js';

const jfk = s16leToFloat(pcmOf(JFK_WAV).pcm);

function run(decoder: UtteranceDecoder, options = { offsetSeconds: 0, firstSegmentId: 0 }) {
  const finals: [number, LiveUtterance][] = [];
  const partials: [number, string][] = [];
  const stream = new VadLiveStream(decoder, SILERO_V5, { partial: (id, text) => partials.push([id, text]), final: (id, u) => finals.push([id, u]) }, options, createLoadGauge());
  for (let at = 0; at < jfk.length; at += 1600) stream.accept(jfk.subarray(at, at + 1600));
  stream.finish();
  return { finals, partials };
}

/** A decoder that "recognises" the length of what it is given. */
const measuring = (delayMs = 0): UtteranceDecoder & { calls: number[] } => {
  const calls: number[] = [];
  return {
    calls,
    decode(samples) {
      calls.push(samples.length);
      const until = performance.now() + delayMs;
      while (performance.now() < until) {
        // a slow model
      }
      return { text: `${samples.length}`, words: [{ word: 'w', start: 0.1, end: 0.2 }] };
    },
  };
};

describe('VadLiveStream (Silero VAD on jfk.wav)', () => {
  it('a final per utterance, in order, without overlap, with word times in the session', () => {
    const decoder = measuring();
    const { finals, partials } = run(decoder, { offsetSeconds: 100, firstSegmentId: 7 });
    expect(finals.length).toBeGreaterThanOrEqual(3);
    expect(finals.map(([id]) => id)).toEqual(finals.map((_, i) => 7 + i));
    for (let i = 0; i < finals.length; i++) {
      const u = finals[i]![1];
      expect(u.start).toBeGreaterThanOrEqual(100);
      expect(u.end).toBeLessThanOrEqual(100 + jfk.length / 16000 + 1e-9);
      expect(Number(u.text)).toBeCloseTo((u.end - u.start) * 16000, -1);
      expect(u.words![0]!.start).toBeCloseTo(u.start + 0.1, 6);
      if (i > 0) expect(u.start).toBeGreaterThanOrEqual(finals[i - 1]![1].end - 1e-9);
    }
    // Every second of speech reaches a final: "ask not" (3.3–4.4 s), which Silero v5 misses, rides with the next
    // utterance across the short pause (bridgeGapSeconds).
    for (const speech of [0.5, 2, 3.5, 4.2, 6, 9, 10.5]) expect(finals.some(([, u]) => u.start <= 100 + speech && u.end >= 100 + speech)).toBe(true);
    // A fast model gets partials during speech, each before its utterance's final.
    expect(partials.length).toBeGreaterThan(3);
    for (const [id] of partials) expect(finals.some(([fid]) => fid === id)).toBe(true);
  });

  it('a quiet pause is not decoded with the next utterance', () => {
    const phrase = jfk.subarray(0, Math.round(2.5 * 16000));
    const audio = new Float32Array(phrase.length * 2 + 24000);
    audio.set(phrase);
    audio.set(phrase, phrase.length + 24000); // 1.5 s of digital silence between
    const finals: LiveUtterance[] = [];
    const stream = new VadLiveStream(measuring(), SILERO_V5, { partial: () => undefined, final: (_id, u) => finals.push(u) }, { offsetSeconds: 0, firstSegmentId: 0 }, createLoadGauge());
    for (let at = 0; at < audio.length; at += 1600) stream.accept(audio.subarray(at, at + 1600));
    stream.finish();
    expect(finals).toHaveLength(2);
    // The second utterance starts at its speech (0.29 s into the phrase) less the 0.2 s padding, not at the first's end.
    expect(finals[1]!.start).toBeCloseTo(4 + 0.29 - 0.2, 1);
  });

  it('a model too slow for partials gives finals only', () => {
    const { finals, partials } = run(measuring(400));
    expect(finals.length).toBeGreaterThanOrEqual(3);
    expect(partials.length).toBeLessThanOrEqual(1);
  });

  it('silence gives nothing', () => {
    const decoder = measuring();
    const stream = new VadLiveStream(decoder, SILERO_V5, { partial: () => undefined, final: () => expect.unreachable() }, { offsetSeconds: 0, firstSegmentId: 0 }, createLoadGauge());
    for (let i = 0; i < 50; i++) stream.accept(new Float32Array(1600));
    stream.finish();
    expect(decoder.calls).toEqual([]);
  });
});

describe('load gauge', () => {
  it('has spare time until decoding fills half of the window', () => {
    let now = 0;
    const gauge = createLoadGauge(1000, () => now);
    expect(gauge.hasSpareTime()).toBe(true);
    gauge.spent(300);
    expect(gauge.hasSpareTime()).toBe(true);
    gauge.spent(300);
    expect(gauge.hasSpareTime()).toBe(false);
    now = 1500;
    expect(gauge.hasSpareTime()).toBe(true);
  });
});
