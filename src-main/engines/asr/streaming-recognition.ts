/**
 * Transcribes a recording with a streaming (online) recognizer: the audio is fed in small chunks, as a microphone
 * would feed it, and every time the recognizer's endpoint rules see the end of an utterance the utterance becomes
 * one transcript piece. No VAD is needed and memory stays flat whatever the length. At the end a short tail of
 * silence flushes the last partial chunk, which a streaming encoder only decodes once it is complete.
 */
import { jobCancelled, JobError } from '../../common/errors.js';
import type { SherpaOnlineRecognizer, SherpaOnlineResult } from './sherpa-native.js';

export const STREAMING_SAMPLE_RATE = 16_000;
/** Samples fed per call: 320 ms, one streaming Zipformer chunk. Endpoints are checked this often. */
export const STREAMING_FEED_SAMPLES = 5_120;
/** Silence appended at the end so the last partial chunk is decoded (models/tiny/README.md: 0.66 s). */
export const STREAMING_TAIL_SECONDS = 0.66;

export interface StreamedUtterance {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  text: string;
  tokens: string[];
  /** Seconds from `start`. */
  timestamps: number[];
  /** Each token's log probability, when the recognizer gives them (transducers). */
  logProbs?: number[];
}

export interface StreamingOptions {
  signal?: AbortSignal;
  /** Seconds of input consumed so far (for progress). */
  onPosition?: (seconds: number) => void;
}

function utterance(result: SherpaOnlineResult, end: number): StreamedUtterance {
  const start = result.start_time ?? 0;
  const logProbs = result.ys_probs?.length ? { logProbs: result.ys_probs } : {};
  return { start, end: Math.max(end, start), text: result.text ?? '', tokens: result.tokens ?? [], timestamps: result.timestamps ?? [], ...logProbs };
}

/**
 * One stream of a streaming recognizer, fed block by block: the utterances whose endpoint each block reaches, then
 * the last one when the input is finished (after a short tail of silence). Synchronous: recognition is native code.
 */
class UtteranceStream {
  private readonly stream;
  private consumed = 0;
  /** Samples of the recording received so far (the tail is not part of it). */
  private duration = 0;

  constructor(private readonly recognizer: SherpaOnlineRecognizer) {
    this.stream = recognizer.createStream();
  }

  get seconds(): number {
    return this.consumed / STREAMING_SAMPLE_RATE;
  }

  *feed(block: Float32Array): Generator<StreamedUtterance> {
    this.duration += block.length;
    yield* this.accept(block);
  }

  *finish(): Generator<StreamedUtterance> {
    yield* this.accept(new Float32Array(Math.round(STREAMING_TAIL_SECONDS * STREAMING_SAMPLE_RATE)));
    try {
      this.stream.inputFinished();
      while (this.recognizer.isReady(this.stream)) this.recognizer.decode(this.stream);
      const last = this.recognizer.getResult(this.stream);
      if (last.text.trim() !== '') yield utterance(last, this.duration / STREAMING_SAMPLE_RATE);
    } catch (cause) {
      throw new JobError('engine_failed', `streaming recognition failed: ${(cause as Error).message}`, { cause });
    }
  }

  private *accept(samples: Float32Array): Generator<StreamedUtterance> {
    const { recognizer, stream } = this;
    for (let offset = 0; offset < samples.length; offset += STREAMING_FEED_SAMPLES) {
      const piece = samples.subarray(offset, offset + STREAMING_FEED_SAMPLES);
      try {
        stream.acceptWaveform({ samples: piece, sampleRate: STREAMING_SAMPLE_RATE });
        this.consumed += piece.length;
        while (recognizer.isReady(stream)) recognizer.decode(stream);
        if (recognizer.isEndpoint(stream)) {
          const result = recognizer.getResult(stream);
          recognizer.reset(stream);
          if (result.text.trim() !== '') yield utterance(result, Math.min(this.seconds, this.duration / STREAMING_SAMPLE_RATE));
        }
      } catch (cause) {
        throw new JobError('engine_failed', `streaming recognition failed: ${(cause as Error).message}`, { cause });
      }
    }
  }
}

export async function* streamingUtterances(
  recognizer: SherpaOnlineRecognizer,
  blocks: AsyncIterable<Float32Array>,
  options: StreamingOptions = {},
): AsyncGenerator<StreamedUtterance> {
  const stream = new UtteranceStream(recognizer);
  for await (const block of blocks) {
    if (options.signal?.aborted) throw jobCancelled();
    yield* stream.feed(block);
    options.onPosition?.(stream.seconds);
  }
  yield* stream.finish();
}

/** The utterances of `samples` on their own, in a fresh stream (a doubtful utterance decoded again: streaming-redecode.ts). */
export function utterancesOf(recognizer: SherpaOnlineRecognizer, samples: Float32Array): StreamedUtterance[] {
  const stream = new UtteranceStream(recognizer);
  return [...stream.feed(samples), ...stream.finish()];
}
