/**
 * Live recognition with an offline model (Whisper, Parakeet, Moonshine, SenseVoice, PocketSphinx): Silero VAD finds
 * where each utterance ends, and the utterance is decoded whole into one `transcript.final`. While someone speaks,
 * the speech so far is decoded again every `partialEverySeconds` into a `transcript.partial` — only when the model is
 * fast enough for it (its measured decode time for that much audio fits in `partialBudget` of the interval, and the
 * process is not already busy with other sessions), so a slow model gives finals only instead of falling behind.
 */
import { createVad, VAD_DEFAULTS } from '../audio/vad.js';
import type { SherpaVad } from '../asr/sherpa-native.js';
import {
  LIVE_SAMPLE_RATE,
  type LiveStream,
  type LiveStreamEvents,
  type LiveStreamOptions,
  type UtteranceDecoder,
} from './live-recognition-types.js';

/** Endpointing and partial settings of the VAD path, each with its default. */
export const LIVE_VAD_SETTINGS = {
  /** Speech probability above which a frame is speech. Default 0.5 (the detector's own). */
  threshold: VAD_DEFAULTS.threshold,
  /** Silence that ends an utterance (s). Default 0.5: short enough to feel immediate, long enough for a comma. */
  minSilenceSeconds: 0.5,
  /** Speech shorter than this is ignored (s). Default 0.25 (the detector's own default). */
  minSpeechSeconds: VAD_DEFAULTS.minSpeechSeconds,
  /** Utterances are cut at this length (s). Default 15: a final at least this often during a long monologue. */
  maxSpeechSeconds: 15,
  /** Audio kept before and after each utterance so word edges are not clipped (s). Default 0.2. */
  padSeconds: 0.2,
  /**
   * A pause shorter than this before an utterance is decoded with it (s) when it is not quiet. Default 3, as the job
   * engine merges VAD segments (engines/audio/segments.ts): Silero v5 misses some short phrases between pauses —
   * "ask not" in jfk.wav (3.3–4.4 s) at any threshold it is usable with — and a word the detector missed must still
   * reach the recognizer. The decode starts at the pause's first loud moment (bridgeLevel), so silence is not decoded.
   */
  bridgeGapSeconds: 3,
  /** A 20 ms frame of a pause is loud when its RMS reaches this share of the utterance's RMS. Default 0.25. */
  bridgeLevel: 0.25,
  /** How often a partial is decoded during speech (s of audio). Default 0.5. */
  partialEverySeconds: 0.5,
  /** Share of the interval a partial decode may take (otherwise none is made). Default 0.5. */
  partialBudget: 0.5,
} as const;

/** Whether the process has time for optional work (partials); shared by every stream of a recognizer process. */
export interface LoadGauge {
  /** True while decoding takes less than half of the recent wall time. */
  hasSpareTime(): boolean;
  /** Records ms spent decoding. */
  spent(ms: number): void;
}

/** The process's recent decode load: ms spent decoding within a sliding 2 s window. */
export function createLoadGauge(windowMs = 2000, now: () => number = () => performance.now()): LoadGauge {
  const spans: { at: number; ms: number }[] = [];
  const prune = (): void => {
    const from = now() - windowMs;
    while (spans.length > 0 && spans[0]!.at < from) spans.shift();
  };
  return {
    hasSpareTime() {
      prune();
      return spans.reduce((sum, s) => sum + s.ms, 0) < windowMs / 2;
    },
    spent(ms) {
      spans.push({ at: now(), ms });
      prune();
    },
  };
}

/** Below this RMS a pause frame is quiet whatever the utterance's level (about −50 dBFS). */
const MIN_BRIDGE_RMS = 0.003;

function rms(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return samples.length > 0 ? Math.sqrt(sum / samples.length) : 0;
}

/** Silero VAD's window at 16 kHz (docs/design.md §7: windowSize 512). */
const VAD_WINDOW = 512;

export class VadLiveStream implements LiveStream {
  private readonly vad: SherpaVad;
  private readonly rate = LIVE_SAMPLE_RATE;
  /** Samples not yet given to the detector (less than one window). */
  private pending = new Float32Array(0);
  /**
   * Recent input, sample index historyStart … consumed, held in `history[0 … held)`. The buffer has room for twice
   * what is kept and is compacted only when full, so a 100 ms frame costs a copy of itself, not a new 20 s array (that
   * was 1.3 MB of garbage per frame and stream, and the recognizer's resident memory sawed with it).
   */
  private history: Float32Array;
  private held = 0;
  private readonly keep: number;
  private historyStart = 0;
  private consumed = 0;
  private segmentId: number;
  /** End (sample index) of audio already given to a final. */
  private placed = 0;
  /** Where the current speech began (sample index), while the detector is in speech. */
  private speechFrom: number | null = null;
  private lastPartialAt = 0;
  private lastPartialText = '';
  /** Measured decode cost, ms per second of audio (null until the first decode). */
  private msPerSecond: number | null = null;

  constructor(
    private readonly decoder: UtteranceDecoder,
    vadModel: string,
    private readonly events: LiveStreamEvents,
    private readonly options: LiveStreamOptions,
    private readonly gauge: LoadGauge,
    private readonly settings: typeof LIVE_VAD_SETTINGS = LIVE_VAD_SETTINGS,
  ) {
    this.segmentId = options.firstSegmentId;
    this.keep = Math.round((settings.maxSpeechSeconds + 2 * settings.padSeconds + 5) * this.rate);
    this.history = new Float32Array(2 * this.keep);
    this.vad = createVad({
      model: vadModel,
      threshold: settings.threshold,
      minSilenceSeconds: settings.minSilenceSeconds,
      minSpeechSeconds: settings.minSpeechSeconds,
      maxSpeechSeconds: settings.maxSpeechSeconds,
    });
  }

  accept(samples: Float32Array): void {
    this.remember(samples);
    this.feedDetector(samples);
    this.takeFinals();
    if (this.vad.isDetected()) {
      // Speech was confirmed minSpeechSeconds (plus a window or two) after it began.
      const back = Math.round((this.settings.minSpeechSeconds + this.settings.padSeconds + 0.064) * this.rate);
      this.speechFrom ??= Math.max(this.placed, this.historyStart, this.consumed - samples.length - back);
      this.maybePartial();
    } else {
      this.speechFrom = null;
    }
  }

  finish(): void {
    if (this.pending.length > 0) this.vad.acceptWaveform(this.pending);
    this.pending = new Float32Array(0);
    this.vad.flush();
    this.takeFinals();
    this.speechFrom = null;
  }

  dispose(): void {
    // The sherpa-onnx Vad has no explicit free; dropping the reference lets its finalizer run.
    this.history = new Float32Array(0);
    this.held = 0;
  }

  /**
   * The detector is given whole 512-sample windows only (its window size): frames of other sizes (100 ms = 1600
   * samples) otherwise shift its windows and it missed "ask not" in jfk.wav. The rest waits for the next frame.
   */
  private feedDetector(samples: Float32Array): void {
    let input = samples;
    if (this.pending.length > 0) {
      input = new Float32Array(this.pending.length + samples.length);
      input.set(this.pending);
      input.set(samples, this.pending.length);
    }
    const whole = input.length - (input.length % VAD_WINDOW);
    for (let at = 0; at < whole; at += VAD_WINDOW) this.vad.acceptWaveform(input.subarray(at, at + VAD_WINDOW));
    this.pending = input.slice(whole);
  }

  private remember(samples: Float32Array): void {
    this.consumed += samples.length;
    if (samples.length >= this.keep) {
      this.history.set(samples.subarray(samples.length - this.keep));
      this.held = this.keep;
    } else {
      if (this.held + samples.length > this.history.length) {
        const kept = this.keep - samples.length;
        this.history.copyWithin(0, this.held - kept, this.held);
        this.held = kept;
      }
      this.history.set(samples, this.held);
      this.held += samples.length;
    }
    this.historyStart = this.consumed - this.held;
  }

  /**
   * The recent input from sample index `from` to `to` (clipped to what is held), as a view: valid until the next
   * `accept`, which is long enough for the synchronous decode it is given to.
   */
  private recent(from: number, to: number): Float32Array {
    const a = Math.max(from, this.historyStart);
    const b = Math.min(to, this.consumed);
    return b > a ? this.history.subarray(a - this.historyStart, b - this.historyStart) : new Float32Array(0);
  }

  private takeFinals(): void {
    const pad = Math.round(this.settings.padSeconds * this.rate);
    while (!this.vad.isEmpty()) {
      const front = this.vad.front(false);
      this.vad.pop();
      const end = front.start + front.samples.length;
      if (end <= this.placed) continue;
      // Padding from the recent input around the detector's segment, never reusing audio already placed; a short
      // pause since the last utterance is decoded with this one from its first loud moment (bridgeGapSeconds).
      const loud = this.firstLoud(front.start, rms(front.samples));
      const from = Math.max(Math.min(front.start, loud ?? front.start) - pad, this.placed, this.historyStart);
      const to = Math.min(this.consumed, end + pad);
      const samples = from < front.start || to > end ? this.recent(from, to) : front.samples;
      this.placed = to;
      this.final(from, to, samples);
    }
  }

  /** Sample index of the first loud 20 ms frame of a short pause before `start` (since the last final), or null. */
  private firstLoud(start: number, level: number): number | null {
    if (this.placed === 0 || start - this.placed > this.settings.bridgeGapSeconds * this.rate) return null;
    const gap = this.recent(this.placed, start);
    const frame = Math.round(0.02 * this.rate);
    const threshold = Math.max(MIN_BRIDGE_RMS, level * this.settings.bridgeLevel);
    for (let at = 0; at + frame <= gap.length; at += frame) {
      if (rms(gap.subarray(at, at + frame)) >= threshold) return start - gap.length + at;
    }
    return null;
  }

  private final(from: number, to: number, samples: Float32Array): void {
    const started = performance.now();
    const result = this.decoder.decode(samples);
    const decodeMs = performance.now() - started;
    this.measure(decodeMs, samples.length);
    const text = result.text.trim();
    const shown = this.lastPartialText !== '';
    this.lastPartialText = '';
    this.lastPartialAt = this.consumed;
    // Silence or noise with no word: no final, unless partials were shown for it (an empty final clears them).
    if (text === '' && !shown) return;
    const id = this.segmentId++;
    const offset = this.options.offsetSeconds;
    const start = offset + from / this.rate;
    const words = result.words?.map((w) => ({ word: w.word, start: start + w.start, end: start + w.end }));
    this.events.final(id, { start, end: offset + to / this.rate, text, ...(words && words.length > 0 ? { words } : {}), decodeMs });
  }

  private maybePartial(): void {
    const every = Math.round(this.settings.partialEverySeconds * this.rate);
    if (this.speechFrom === null || this.consumed - this.lastPartialAt < every) return;
    this.lastPartialAt = this.consumed;
    const length = this.consumed - this.speechFrom;
    const budgetMs = this.settings.partialEverySeconds * 1000 * this.settings.partialBudget;
    if (this.msPerSecond !== null && (this.msPerSecond * length) / this.rate > budgetMs) return;
    if (!this.gauge.hasSpareTime()) return;
    const samples = this.recent(this.speechFrom, this.consumed);
    const started = performance.now();
    const result = this.decoder.decode(samples);
    this.measure(performance.now() - started, samples.length);
    const text = result.text.trim();
    if (text === '' || text === this.lastPartialText) return;
    this.lastPartialText = text;
    this.events.partial(this.segmentId, text);
  }

  private measure(ms: number, samples: number): void {
    this.gauge.spent(ms);
    if (samples < this.rate / 4) return;
    const perSecond = ms / (samples / this.rate);
    this.msPerSecond = this.msPerSecond === null ? perSecond : 0.7 * this.msPerSecond + 0.3 * perSecond;
  }
}
