/**
 * Live recognition with a streaming model (sherpa-onnx OnlineRecognizer, e.g. a streaming Zipformer transducer): the
 * audio is decoded as it arrives, one encoder chunk (320 ms for Zipformer) at a time, so the text of the current
 * utterance is sent as a `transcript.partial` after every chunk that changed it. The recognizer's endpoint rules
 * (sherpa-recognizers STREAMING_ENDPOINT_RULES: 1.2 s of silence after words) close an utterance into a
 * `transcript.final`. At the end of input a short silent tail flushes the last partial chunk.
 */
import type { SherpaOnlineRecognizer, SherpaOnlineResult, SherpaOnlineStream } from '../asr/sherpa-native.js';
import { wordsFromTokens } from '../asr/token-words.js';
import type { LoadGauge } from './vad-live-stream.js';
import { LIVE_SAMPLE_RATE, type LiveStream, type LiveStreamEvents, type LiveStreamOptions } from './live-recognition-types.js';

/** Silence appended at the end of input so the last partial chunk is decoded (models/tiny README: 0.66 s). */
export const STREAM_TAIL_SECONDS = 0.66;

export class StreamingLiveStream implements LiveStream {
  private readonly stream: SherpaOnlineStream;
  /** Samples of real input accepted (the tail is not counted). */
  private consumed = 0;
  /** Sample index where the current utterance began (after the last endpoint). */
  private utteranceFrom = 0;
  private segmentId: number;
  private lastPartial = '';

  constructor(
    private readonly recognizer: SherpaOnlineRecognizer,
    private readonly events: LiveStreamEvents,
    private readonly options: LiveStreamOptions,
    private readonly gauge: LoadGauge,
  ) {
    this.segmentId = options.firstSegmentId;
    this.stream = recognizer.createStream();
  }

  accept(samples: Float32Array): void {
    this.stream.acceptWaveform({ samples, sampleRate: LIVE_SAMPLE_RATE });
    this.consumed += samples.length;
    this.step(false);
  }

  finish(): void {
    this.stream.acceptWaveform({ samples: new Float32Array(Math.round(STREAM_TAIL_SECONDS * LIVE_SAMPLE_RATE)), sampleRate: LIVE_SAMPLE_RATE });
    this.stream.inputFinished();
    this.step(true);
  }

  dispose(): void {
    // sherpa-onnx frees the stream when it is collected.
  }

  private step(last: boolean): void {
    const started = performance.now();
    let decoded = false;
    while (this.recognizer.isReady(this.stream)) {
      this.recognizer.decode(this.stream);
      decoded = true;
    }
    const decodeMs = performance.now() - started;
    this.gauge.spent(decodeMs);
    if (last || this.recognizer.isEndpoint(this.stream)) {
      const result = this.recognizer.getResult(this.stream);
      if (!last) this.recognizer.reset(this.stream);
      this.final(result, decodeMs);
      return;
    }
    if (!decoded) return;
    const text = this.recognizer.getResult(this.stream).text.trim();
    if (text === '' || text === this.lastPartial) return;
    this.lastPartial = text;
    this.events.partial(this.segmentId, text);
  }

  private final(result: SherpaOnlineResult, decodeMs: number): void {
    const from = this.utteranceFrom;
    this.utteranceFrom = this.consumed;
    const text = (result.text ?? '').trim();
    const shown = this.lastPartial !== '';
    this.lastPartial = '';
    if (text === '' && !shown) return;
    const offset = this.options.offsetSeconds;
    const end = offset + this.consumed / LIVE_SAMPLE_RATE;
    // start_time counts from the stream's start; the utterance began no earlier than the last endpoint.
    const start = Math.min(end, offset + Math.max(from / LIVE_SAMPLE_RATE, result.start_time ?? 0));
    const base = offset + (result.start_time ?? from / LIVE_SAMPLE_RATE);
    const words = wordsFromTokens({ tokens: result.tokens ?? [], timestamps: result.timestamps ?? [] }, base, end);
    this.events.final(this.segmentId++, { start, end, text, ...(words.length > 0 ? { words } : {}), decodeMs });
  }
}
