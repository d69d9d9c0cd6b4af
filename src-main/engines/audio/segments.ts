/**
 * Cuts a stream of 16 kHz blocks into speech segments for offline recognizers: Silero VAD when a model is
 * installed, otherwise fixed windows cut at the quietest moment near their end (so no word is cut in two and no
 * overlap has to be de-duplicated). Segments carry their start/end time in the recording; the caller reports
 * progress from `onPosition` and cancellation is checked between blocks and segments.
 */
import { JobError } from '../../common/errors.js';
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

export function segmentSpeech(blocks: AsyncIterable<Float32Array>, options: SegmentOptions = {}): AsyncGenerator<SpeechSegment> {
  return options.vadModel ? vadSegments(blocks, options.vadModel, options) : fixedSegments(blocks, options);
}

function checkCancel(signal?: AbortSignal): void {
  if (signal?.aborted) throw new JobError('cancelled', 'the job was cancelled');
}

/**
 * VAD segments separated by less than `mergeGapSeconds` are merged (with the audio between them) up to the maximum
 * length: recognizers do better with context, and Silero v5 in sherpa-onnx 1.13.8 misses some short phrases between
 * pauses (jfk.wav 3.2–4.4 s), which merging recovers. Longer silences are skipped. A segment's own samples come from
 * the detector; the gaps and edge padding come from a short history of the input (a gap no longer in it is not merged).
 */
async function* vadSegments(blocks: AsyncIterable<Float32Array>, model: string, options: SegmentOptions): AsyncGenerator<SpeechSegment> {
  const vad = createVad({ ...options.vad, model });
  const maxSamples = Math.round((options.vad?.maxSpeechSeconds ?? VAD_DEFAULTS.maxSpeechSeconds) * ASR_SAMPLE_RATE);
  const mergeGap = Math.round((options.mergeGapSeconds ?? VAD_MERGE_GAP_SECONDS) * ASR_SAMPLE_RATE);
  const pad = Math.round(VAD_PAD_SECONDS * ASR_SAMPLE_RATE);
  // Long enough to hold the gap before a maximal segment; longer detector segments are not merged.
  const historyLength = maxSamples + mergeGap + pad + 10 * ASR_SAMPLE_RATE;
  // Recent input (sample index historyStart … consumed): gaps between merged segments and padding come from it.
  let history = new Float32Array(0);
  let historyStart = 0;
  let consumed = 0;
  let pending: { start: number; end: number; parts: Float32Array[] } | null = null;
  let placed = 0; // end of the audio already given to a segment
  const inHistory = (from: number, to: number): boolean => from >= historyStart && to <= consumed;
  const recent = (from: number, to: number): Float32Array =>
    to > from ? history.slice(from - historyStart, to - historyStart) : new Float32Array(0);
  const emit = function* (): Generator<SpeechSegment> {
    if (!pending) return;
    yield* splitLong(pending.start, concatSamples(pending.parts), maxSamples);
    pending = null;
  };
  const take = function* (final: boolean): Generator<SpeechSegment> {
    while (!vad.isEmpty()) {
      const front = vad.front(false);
      vad.pop();
      // Padding may reach into the next detected segment: never place the same audio twice.
      const skip = Math.min(front.samples.length, Math.max(0, placed - front.start));
      const start = front.start + skip;
      const body = front.samples.subarray(skip);
      const end = start + body.length;
      const tail = recent(end, Math.min(consumed, end + pad));
      const mergeable = pending && start - pending.end <= mergeGap && end + tail.length - pending.start <= maxSamples;
      if (pending && mergeable && inHistory(pending.end, start)) {
        pending.parts.push(recent(pending.end, start), body, tail);
        pending.end = placed = end + tail.length;
        continue;
      }
      yield* emit();
      const from = Math.max(0, start - pad, historyStart, placed);
      const head = from < start ? recent(from, start) : new Float32Array(0);
      pending = { start: start - head.length, end: end + tail.length, parts: [head, body, tail] };
      placed = pending.end;
    }
    if (pending && (final || (!vad.isDetected() && consumed - pending.end > mergeGap))) yield* emit();
  };
  for await (const block of blocks) {
    checkCancel(options.signal);
    const keep = Math.min(history.length, Math.max(0, historyLength - block.length));
    const joined = new Float32Array(keep + block.length);
    joined.set(history.subarray(history.length - keep));
    joined.set(block, keep);
    history = joined;
    consumed += block.length;
    historyStart = consumed - history.length;
    // The detector works in 512-sample windows; whole blocks at once made it miss speech in tests.
    for (let at = 0; at < block.length; at += 512) vad.acceptWaveform(block.subarray(at, at + 512));
    options.onPosition?.(consumed / ASR_SAMPLE_RATE);
    for (const segment of take(false)) {
      checkCancel(options.signal);
      yield segment;
    }
  }
  vad.flush();
  for (const segment of take(true)) {
    checkCancel(options.signal);
    yield segment;
  }
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

async function* fixedSegments(blocks: AsyncIterable<Float32Array>, options: SegmentOptions): AsyncGenerator<SpeechSegment> {
  const window = Math.round((options.windowSeconds ?? FIXED_WINDOW_DEFAULTS.windowSeconds) * ASR_SAMPLE_RATE);
  const search = Math.min(window - 1, Math.round((options.searchSeconds ?? FIXED_WINDOW_DEFAULTS.searchSeconds) * ASR_SAMPLE_RATE));
  let pending = new Float32Array(0);
  let pendingStart = 0; // sample index of pending[0] in the recording
  let consumed = 0;
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

/** Cuts a segment longer than maxSamples at its quietest moments (within the last 3 s of each piece). */
function* splitLong(startSample: number, samples: Float32Array, maxSamples: number): Generator<SpeechSegment> {
  const search = Math.min(maxSamples - 1, 3 * ASR_SAMPLE_RATE);
  let offset = 0;
  while (offset < samples.length) {
    const rest = samples.subarray(offset);
    const length = rest.length <= maxSamples ? rest.length : quietestCut(rest, maxSamples - search, maxSamples);
    const start = (startSample + offset) / ASR_SAMPLE_RATE;
    yield { start, end: start + length / ASR_SAMPLE_RATE, samples: rest.slice(0, length) };
    offset += length;
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
