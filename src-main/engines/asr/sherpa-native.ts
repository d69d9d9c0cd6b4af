/**
 * Typed view of the parts of `sherpa-onnx-node` (CommonJS, no .d.ts) that speech-to-text uses. Loaded lazily so that
 * workers which never recognise speech do not pay for the native addon.
 */
import { createRequire } from 'node:module';

export interface SherpaWaveform {
  samples: Float32Array;
  sampleRate: number;
}

export interface SherpaOfflineResult {
  lang?: string;
  text: string;
  tokens?: string[];
  timestamps?: number[];
  durations?: number[];
  /** Each token's log probability (transducers; empty for the other families). */
  ys_log_probs?: number[];
}

export interface SherpaOfflineStream {
  acceptWaveform(wave: SherpaWaveform): void;
}

export interface SherpaOfflineRecognizer {
  createStream(hotwords?: string): SherpaOfflineStream;
  decode(stream: SherpaOfflineStream): void;
  getResult(stream: SherpaOfflineStream): SherpaOfflineResult;
}

export interface SherpaOnlineResult {
  text: string;
  tokens: string[];
  /** Seconds from start_time. */
  timestamps: number[];
  /** Each token's log probability (transducers). */
  ys_probs?: number[];
  /** Seconds from the start of the stream where this utterance began (after the last reset). */
  start_time: number;
}

export interface SherpaOnlineStream {
  acceptWaveform(wave: SherpaWaveform): void;
  inputFinished(): void;
}

export interface SherpaOnlineRecognizer {
  createStream(): SherpaOnlineStream;
  isReady(stream: SherpaOnlineStream): boolean;
  decode(stream: SherpaOnlineStream): void;
  isEndpoint(stream: SherpaOnlineStream): boolean;
  reset(stream: SherpaOnlineStream): void;
  getResult(stream: SherpaOnlineStream): SherpaOnlineResult;
}

export interface SherpaVadSegment {
  /** First sample index of the segment, counted from the first sample the detector accepted. */
  start: number;
  samples: Float32Array;
}

export interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  /** True while the detector is inside speech. */
  isDetected(): boolean;
  front(enableExternalBuffer?: boolean): SherpaVadSegment;
  pop(): void;
  flush(): void;
  /** Back to the state of a new detector: model state, buffer and segments cleared, sample counting from 0 again. */
  reset(): void;
}

export interface SherpaDiarizationSegment {
  start: number;
  end: number;
  speaker: number;
}

export interface SherpaSpeakerDiarization {
  readonly sampleRate: number;
  process(samples: Float32Array): SherpaDiarizationSegment[];
  /** Changes the clustering of later process() calls (a cluster count, or -1 and a distance threshold). */
  setConfig(config: { clustering: { numClusters: number; threshold?: number } }): void;
}

export interface SherpaSpeakerEmbeddingExtractor {
  readonly dim: number;
  createStream(): SherpaOnlineStream;
  isReady(stream: SherpaOnlineStream): boolean;
  compute(stream: SherpaOnlineStream, enableExternalBuffer?: boolean): Float32Array;
}

export interface SherpaModule {
  OfflineRecognizer: new (config: Record<string, unknown>) => SherpaOfflineRecognizer;
  OnlineRecognizer: new (config: Record<string, unknown>) => SherpaOnlineRecognizer;
  Vad: new (config: Record<string, unknown>, bufferSizeInSeconds: number) => SherpaVad;
  OfflineSpeakerDiarization: new (config: Record<string, unknown>) => SherpaSpeakerDiarization;
  SpeakerEmbeddingExtractor: new (config: Record<string, unknown>) => SherpaSpeakerEmbeddingExtractor;
}

let cached: SherpaModule | undefined;

export function loadSherpa(): SherpaModule {
  cached ??= createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
  return cached;
}
