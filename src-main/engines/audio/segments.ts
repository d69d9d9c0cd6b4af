/**
 * Cuts a stream of 16 kHz blocks into speech segments for offline recognizers: Silero VAD when a model is
 * installed, otherwise fixed windows cut at the quietest moment near their end (so no word is cut in two and no
 * overlap has to be de-duplicated). Segments carry their start/end time in the recording; the caller reports
 * progress from `onPosition` and cancellation is checked between blocks and segments.
 *
 * Resumable: every segment's end is a point the segmentation can start again from (`startSample`) and produce
 * exactly the segments an uninterrupted run produces after it. A transcription that stopped after a committed
 * segment therefore continues with the same segments (same indexes, same text) without running VAD over the audio
 * before it. For that, nothing after a segment depends on anything before its end: the detector is reset at every
 * segment end and fed again from there, and every decision depends only on the samples since that point (counted in
 * the detector's 512-sample windows), never on how the decoder happened to cut its blocks.
 */
import { jobCancelled } from '../../common/errors.js';
import { ASR_SAMPLE_RATE } from './decode.js';
import { createVad, VAD_DEFAULTS, type VadOptions } from './vad.js';

export interface SpeechSegment {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  samples: Float32Array;
}

export interface SegmentOptions {
  /** Silero VAD model path; null/undefined → fixed windows. Default: fixed windows. */
  vadModel?: string | null;
  /** VAD tuning (see VAD_DEFAULTS in vad.ts). */
  vad?: Omit<VadOptions, 'model'>;
  /** VAD segments separated by less than this are merged. Default VAD_MERGE_GAP_SECONDS (3 s). */
  mergeGapSeconds?: number;
  /** Fixed-window length. Default 25 s. */
  windowSeconds?: number;
  /** Fixed windows end at the quietest 50 ms within this many seconds before the window length. Default 3 s. */
  searchSeconds?: number;
  /**
   * Sample (16 kHz) of the recording the blocks start at: the end of the last segment of an earlier run, to resume
   * after it. Default 0 (the blocks are the whole recording).
   */
  startSample?: number;
  /** Aborting throws JobError('cancelled') at the next block or segment. */
  signal?: AbortSignal;
  /** Called with the seconds of input consumed so far (for progress). */
  onPosition?: (seconds: number) => void;
}

/** VAD segments closer than this are merged (with the audio between them). */
export const VAD_MERGE_GAP_SECONDS = 3;
/** Audio kept before and after each VAD segment so that word edges are not clipped. */
export const VAD_PAD_SECONDS = 0.2;
export const FIXED_WINDOW_DEFAULTS = { windowSeconds: 25, searchSeconds: 3 } as const;
/** Fixed windows whose peak stays below this are digital silence and not recognised. */
const SILENCE_PEAK = 1e-4;
/** Silero's window: the detector is fed exactly this many samples at a time, counted from its last reset. */
const VAD_WINDOW = 512;

export function segmentSpeech(blocks: AsyncIterable<Float32Array>, options: SegmentOptions = {}): AsyncGenerator<SpeechSegment> {
  const startSample = options.startSample ?? 0;
  if (!Number.isInteger(startSample) || startSample < 0) throw new Error(`startSample must be an integer >= 0, got ${startSample}`);
  return options.vadModel ? vadSegments(blocks, options.vadModel, options, startSample) : fixedSegments(blocks, options, startSample);
}

function checkCancel(signal?: AbortSignal): void {
  if (signal?.aborted) throw jobCancelled();
}

/**
 * VAD segments separated by less than `mergeGapSeconds` are merged (with the audio between them) up to the maximum
 * length: recognizers do better with context, and Silero v5 in sherpa-onnx 1.13.8 misses some short phrases between
 * pauses (jfk.wav 3.2–4.4 s), which merging or the restart below recovers. Longer silences are skipped. A segment's own samples come from
 * the detector; the gaps and edge padding come from a short history of the input (a gap no longer in it is not merged).
 *
 * After each segment the detector starts afresh at the segment's end (`origin`) and is fed again from there: what
 * it had already seen past that point was seen with a state a resumed run would not have. Re-feeding costs some VAD
 * time (at most about one segment's length per segment), which is small next to recognition.
 */
async function* vadSegments(blocks: AsyncIterable<Float32Array>, model: string, options: SegmentOptions, startSample: number): AsyncGenerator<SpeechSegment> {
  const vad = createVad({ ...options.vad, model });
  const maxSamples = Math.round((options.vad?.maxSpeechSeconds ?? VAD_DEFAULTS.maxSpeechSeconds) * ASR_SAMPLE_RATE);
  const mergeGap = Math.round((options.mergeGapSeconds ?? VAD_MERGE_GAP_SECONDS) * ASR_SAMPLE_RATE);
  const pad = Math.round(VAD_PAD_SECONDS * ASR_SAMPLE_RATE);
  // Speech the detector is inside of ends no earlier than this far before what it has been fed, and speech it has
  // not confirmed yet starts no earlier than this (sherpa-onnx dates a segment's start back by the minimum speech
  // length and two windows when it confirms it; measured 0.354 s with the defaults): margins of a few windows.
  const endLag = Math.round((options.vad?.minSilenceSeconds ?? VAD_DEFAULTS.minSilenceSeconds) * ASR_SAMPLE_RATE) + 4 * VAD_WINDOW;
  const startLag = Math.round((options.vad?.minSpeechSeconds ?? VAD_DEFAULTS.minSpeechSeconds) * ASR_SAMPLE_RATE) + 8 * VAD_WINDOW;
  // How far back gaps and padding may reach: the gap before a maximal segment, and some.
  const historyLength = maxSamples + mergeGap + pad + 10 * ASR_SAMPLE_RATE;
  // The input received so far that may still be needed: samples bufferStart … received of the recording.
  let buffer = new Float32Array(0);
  let bufferStart = startSample;
  let received = startSample;
  // The detector's run: reset at `origin`, fed origin … fed. Every decision below depends on these only.
  let origin = startSample;
  let fed = startSample;
  let pending = null as { start: number; end: number; parts: Float32Array[] } | null;
  let placed = startSample; // end of the audio already given to a segment
  const historyStart = (): number => Math.max(origin, fed - historyLength);
  const inHistory = (from: number, to: number): boolean => from >= historyStart() && to <= fed;
  const recent = (from: number, to: number): Float32Array =>
    to > from ? buffer.slice(from - bufferStart, to - bufferStart) : new Float32Array(0);

  /** The pending segment (its first maxSamples at most; the rest is found again after the restart). */
  const emit = (): SpeechSegment => {
    const all = concatSamples(pending!.parts);
    const length = all.length <= maxSamples ? all.length : quietestCut(all, maxSamples - Math.min(maxSamples - 1, 3 * ASR_SAMPLE_RATE), maxSamples);
    const start = pending!.start;
    pending = null;
    return { start: start / ASR_SAMPLE_RATE, end: (start + length) / ASR_SAMPLE_RATE, samples: all.slice(0, length) };
  };
  const restartAt = (segment: SpeechSegment): void => {
    vad.reset();
    origin = fed = placed = Math.round(segment.end * ASR_SAMPLE_RATE);
  };
  /** Looks at what the detector found; returns the next finished segment, if any (at most one). */
  const take = (final: boolean): SpeechSegment | null => {
    while (!vad.isEmpty()) {
      const front = vad.front(false);
      vad.pop();
      // Padding may reach into the next detected segment: never place the same audio twice.
      const frontStart = origin + front.start;
      const skip = Math.min(front.samples.length, Math.max(0, placed - frontStart));
      const body = front.samples.subarray(skip);
      if (body.length === 0) continue;
      const start = frontStart + skip;
      const end = start + body.length;
      const tail = recent(end, Math.min(fed, end + pad));
      const mergeable = pending && start - pending.end <= mergeGap && end + tail.length - pending.start <= maxSamples;
      if (pending && mergeable && inHistory(pending.end, start)) {
        pending.parts.push(recent(pending.end, start), body, tail);
        pending.end = placed = end + tail.length;
        continue;
      }
      // What follows the pending segment is detected again after the restart at its end.
      if (pending) return emit();
      const from = Math.max(0, start - pad, historyStart(), placed);
      const head = from < start ? recent(from, start) : new Float32Array(0);
      pending = { start: start - head.length, end: end + tail.length, parts: [head, body, tail] };
      placed = pending.end;
    }
    if (!pending) return null;
    if (final) return emit();
    // Nothing can join the pending segment any more: speech too far after it, or going on too long to fit with it.
    // (Emitting now rather than when the next detection arrives gives the same segments; it only saves feeding that
    // speech to the detector twice.)
    if (vad.isDetected() ? fed - endLag - pending.start > maxSamples : fed - startLag - pending.end > mergeGap) return emit();
    return null;
  };
  /** Feeds whole windows while there is input; at the end, the last partial window and a flush. */
  const drain = function* (final: boolean): Generator<SpeechSegment> {
    for (;;) {
      while (received - fed >= VAD_WINDOW || (final && received > fed)) {
        const to = Math.min(received, fed + VAD_WINDOW);
        vad.acceptWaveform(buffer.subarray(fed - bufferStart, to - bufferStart));
        fed = to;
        const segment = take(false);
        if (segment) {
          checkCancel(options.signal);
          yield segment;
          restartAt(segment);
        }
      }
      if (!final) return;
      vad.flush();
      const segment = take(true);
      if (!segment) return;
      checkCancel(options.signal);
      yield segment;
      restartAt(segment);
    }
  };
  for await (const block of blocks) {
    checkCancel(options.signal);
    // Keep what a gap, padding, a cut or a restart may still need; drop the rest (memory stays flat).
    const keepFrom = Math.max(bufferStart, Math.min(pending?.start ?? fed, historyStart()));
    const joined = new Float32Array(received - keepFrom + block.length);
    joined.set(buffer.subarray(keepFrom - bufferStart));
    joined.set(block, received - keepFrom);
    buffer = joined;
    bufferStart = keepFrom;
    received += block.length;
    yield* drain(false);
    options.onPosition?.(received / ASR_SAMPLE_RATE);
  }
  yield* drain(true);
}

/** One array holding `parts` one after another. */
export function concatSamples(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Windows depend only on the samples since the previous cut, so a run started at a cut continues identically. */
async function* fixedSegments(blocks: AsyncIterable<Float32Array>, options: SegmentOptions, startSample: number): AsyncGenerator<SpeechSegment> {
  const window = Math.round((options.windowSeconds ?? FIXED_WINDOW_DEFAULTS.windowSeconds) * ASR_SAMPLE_RATE);
  const search = Math.min(window - 1, Math.round((options.searchSeconds ?? FIXED_WINDOW_DEFAULTS.searchSeconds) * ASR_SAMPLE_RATE));
  let pending = new Float32Array(0);
  let pendingStart = startSample; // sample index of pending[0] in the recording
  let consumed = startSample;
  const emit = (length: number): SpeechSegment | null => {
    const samples = pending.slice(0, length);
    const segment = { start: pendingStart / ASR_SAMPLE_RATE, end: (pendingStart + length) / ASR_SAMPLE_RATE, samples };
    pending = pending.slice(length);
    pendingStart += length;
    return peak(samples) < SILENCE_PEAK ? null : segment;
  };
  for await (const block of blocks) {
    checkCancel(options.signal);
    const joined = new Float32Array(pending.length + block.length);
    joined.set(pending);
    joined.set(block, pending.length);
    pending = joined;
    consumed += block.length;
    options.onPosition?.(consumed / ASR_SAMPLE_RATE);
    while (pending.length >= window) {
      const segment = emit(quietestCut(pending, window - search, window));
      checkCancel(options.signal);
      if (segment) yield segment;
    }
  }
  if (pending.length > 0) {
    const segment = emit(pending.length);
    if (segment) yield segment;
  }
}

/** End index (exclusive) of the 50 ms frame with the least energy in [from, to). */
function quietestCut(samples: Float32Array, from: number, to: number): number {
  const frame = ASR_SAMPLE_RATE / 20;
  let best = to;
  let bestEnergy = Infinity;
  for (let start = from; start + frame <= to; start += frame) {
    let energy = 0;
    for (let i = start; i < start + frame; i++) energy += samples[i]! * samples[i]!;
    if (energy < bestEnergy) {
      bestEnergy = energy;
      best = start + frame / 2;
    }
  }
  return best;
}

function peak(samples: Float32Array): number {
  let max = 0;
  for (const value of samples) max = Math.max(max, Math.abs(value));
  return max;
}
