import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import { decodeBlocks } from '../../../../src-main/engines/audio/decode.js';
import { segmentSpeech, type SegmentOptions, type SpeechSegment } from '../../../../src-main/engines/audio/segments.js';
import { skipSamples } from '../../../../src-main/engines/audio/skip-samples.js';
import { requireFile, SHARED } from '../../../helpers/system.js';
import { JFK } from '../../../helpers/audio-fixtures.js';
import { scaled } from '../../../helpers/time-scale.js';

const VAD = requireFile(join(SHARED, 'models/silero_vad_v5.onnx'), '../shared (silero_vad_v5.onnx)');
const VAD_V4 = join(SHARED, 'models/silero_vad_v4.onnx');
const PAUSES = join(SHARED, 'audio/noisy/silero-test.wav');

async function collect(file: string, options: SegmentOptions): Promise<SpeechSegment[]> {
  const out: SpeechSegment[] = [];
  for await (const segment of segmentSpeech(decodeBlocks(file, { signal: options.signal }), options)) out.push(segment);
  return out;
}

function expectOrdered(segments: SpeechSegment[], maxSeconds: number): void {
  let previousEnd = 0;
  for (const s of segments) {
    expect(s.start).toBeGreaterThanOrEqual(previousEnd - 1e-6);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end - s.start).toBeLessThanOrEqual(maxSeconds + 1e-6);
    expect(s.samples.length).toBe(Math.round((s.end - s.start) * 16000));
    previousEnd = s.end;
  }
}

describe('segmentSpeech with Silero VAD', () => {
  it.each([VAD, VAD_V4])('covers all of jfk.wav\'s speech in one merged segment (%s)', async (model) => {
    const segments = await collect(JFK, { vadModel: model });
    expect(segments.length).toBe(1);
    expect(segments[0]!.start).toBeLessThan(0.4);
    expect(segments[0]!.end).toBeGreaterThan(10.4);
  });

  it('cuts a minute of speech with pauses into ordered segments of at most 25 s', async () => {
    const segments = await collect(PAUSES, { vadModel: VAD });
    expect(segments.length).toBeGreaterThanOrEqual(3);
    expectOrdered(segments, 25);
    const speech = segments.reduce((n, s) => n + s.end - s.start, 0);
    expect(speech).toBeGreaterThan(30);
    expect(speech).toBeLessThan(60);
  });

  it('each segment holds exactly the input samples at its start/end times (also past 35 s of continuous speech)', async () => {
    const parts: Float32Array[] = [];
    for await (const block of decodeBlocks(PAUSES)) parts.push(block);
    const all = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
    for (const mergeGapSeconds of [3, 0]) {
      const segments = await collect(PAUSES, { vadModel: VAD, mergeGapSeconds });
      expect(segments.length).toBeGreaterThan(0);
      for (const s of segments) {
        const from = Math.round(s.start * 16000);
        const original = all.subarray(from, from + s.samples.length);
        let diff = 0;
        for (let i = 0; i < original.length; i++) diff = Math.max(diff, Math.abs(original[i]! - s.samples[i]!));
        expect(diff).toBeLessThan(1e-6);
      }
    }
  });

  it('without merging, short pauses separate segments', async () => {
    const segments = await collect(JFK, { vadModel: VAD_V4, mergeGapSeconds: 0 });
    expect(segments.length).toBeGreaterThanOrEqual(3);
    expectOrdered(segments, 25);
  });

  it('reports the position in the input as it goes', async () => {
    const positions: number[] = [];
    await collect(PAUSES, { vadModel: VAD, onPosition: (s) => positions.push(s) });
    expect(positions.length).toBeGreaterThan(5);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(positions[positions.length - 1]).toBeCloseTo(60, 1);
  });

  it('stops with JobError cancelled when aborted', async () => {
    const controller = new AbortController();
    const run = collect(PAUSES, { vadModel: VAD, signal: controller.signal, onPosition: (s) => s > 10 && controller.abort() });
    await expect(run).rejects.toSatisfy((e: unknown) => e instanceof JobError && e.code === 'cancelled');
  });
});

describe('segmentSpeech with fixed windows (no VAD model)', () => {
  it('cuts at quiet moments within the last 3 s of each window and covers the whole recording', async () => {
    const segments = await collect(PAUSES, { windowSeconds: 10 });
    expectOrdered(segments, 10);
    for (const s of segments.slice(0, -1)) expect(s.end - s.start).toBeGreaterThanOrEqual(7 - 1e-6);
    expect(segments[0]!.start).toBe(0);
    expect(segments[segments.length - 1]!.end).toBeCloseTo(60, 2);
    const covered = segments.reduce((n, s) => n + s.end - s.start, 0);
    expect(covered).toBeCloseTo(60, 2);
  });

  it('skips digital silence', async () => {
    async function* silence(): AsyncGenerator<Float32Array> {
      for (let i = 0; i < 12; i++) yield new Float32Array(16000 * 5);
    }
    const out: SpeechSegment[] = [];
    for await (const s of segmentSpeech(silence(), {})) out.push(s);
    expect(out).toEqual([]);
  });
});

describe('resuming segmentation after a segment', () => {
  /** Segments of a run that starts at `startSample`, fed in blocks of `blockSamples`. */
  async function from(file: string, startSample: number, options: SegmentOptions, blockSamples: number): Promise<SpeechSegment[]> {
    const out: SpeechSegment[] = [];
    const blocks = skipSamples(decodeBlocks(file, { blockSamples }), startSample);
    for await (const segment of segmentSpeech(blocks, { ...options, startSample })) out.push(segment);
    return out;
  }
  const same = (a: SpeechSegment[], b: SpeechSegment[]): void => {
    expect(b.map((s) => [s.start, s.end])).toEqual(a.map((s) => [s.start, s.end]));
    b.forEach((s, i) => expect(s.samples).toEqual(a[i]!.samples));
  };

  it.each([
    ['Silero VAD, merged', { vadModel: VAD }],
    ['Silero VAD, no merging', { vadModel: VAD, mergeGapSeconds: 0 }],
    ['Silero VAD, 6 s maximum (cut inside speech)', { vadModel: VAD, vad: { maxSpeechSeconds: 6 } }],
    ['fixed windows', { windowSeconds: 10 }],
  ] as const)('%s: a run started at any segment end gives exactly the later segments of an uninterrupted run', async (_name, options) => {
    const whole = await from(PAUSES, 0, options, 5 * 16000);
    expect(whole.length).toBeGreaterThanOrEqual(3);
    expectOrdered(whole, (options as SegmentOptions).vad?.maxSpeechSeconds ?? (options as SegmentOptions).windowSeconds ?? 25);
    // Other block sizes than the uninterrupted run's: the decoder's blocks must not matter. Segment ends spread over
    // the recording (about four), and the last but one.
    const step = Math.max(1, Math.floor(whole.length / 4));
    for (const [i, segment] of whole.entries()) {
      if (i % step !== 0 && i !== whole.length - 2) continue;
      const resumed = await from(PAUSES, Math.round(segment.end * 16000), options, i % 2 ? 7777 : 16000);
      same(whole.slice(i + 1), resumed);
    }
  }, scaled(300_000));

  it('skipSamples drops exactly the samples before the checkpoint', async () => {
    async function* blocks(): AsyncGenerator<Float32Array> {
      for (let b = 0; b < 4; b++) yield Float32Array.from({ length: 10 }, (_, i) => b * 10 + i);
    }
    const out: number[] = [];
    for await (const block of skipSamples(blocks(), 15)) out.push(...block);
    expect(out).toEqual(Array.from({ length: 25 }, (_, i) => 15 + i));
  });
});
