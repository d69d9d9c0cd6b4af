/**
 * sherpa-onnx-node's zero-shot voices (ZipVoice, Pocket TTS), loaded lazily in the engine worker. Both speak a text in
 * the voice of a reference recording through one call, generateAsync({text, generationConfig: {referenceAudio,
 * referenceSampleRate, referenceText, numSteps, speed}}), run off the worker's event loop by the addon. ZipVoice
 * needs the reference's words (its prompt tokens); Pocket TTS takes the audio alone.
 */
import { createRequire } from 'node:module';
import { JobError } from '../../common/errors.js';
import type { CloningEngineConfig } from './cloning-families.js';

interface GeneratedAudio {
  samples: Float32Array;
  sampleRate: number;
}
interface ZeroShotTts {
  readonly sampleRate: number;
  generateAsync(request: {
    text: string;
    sid: number;
    speed: number;
    generationConfig: { speed: number; numSteps: number; referenceAudio: Float32Array; referenceSampleRate: number; referenceText?: string };
    onProgress?: (info: { samples: Float32Array; progress: number }) => number | boolean | void;
  }): Promise<GeneratedAudio>;
}
interface SherpaModule {
  OfflineTts: { createAsync(config: Record<string, unknown>): Promise<ZeroShotTts> };
}

/** One thread: the engines share 2 cores with the service and the other workers. */
const THREADS = 1;

let sherpa: SherpaModule | undefined;
function sherpaModule(): SherpaModule {
  sherpa ??= createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
  return sherpa;
}

export interface CloneRequest {
  text: string;
  /** Mono samples at `referenceRate`. */
  reference: Float32Array;
  referenceRate: number;
  /** The words said in the reference (ZipVoice needs them; Pocket TTS ignores them). */
  referenceText: string | null;
  numSteps: number;
  speed: number;
  /** Called as the model finishes each piece; return false to stop (a cancel). */
  onProgress?: (fraction: number) => boolean;
}

export class ZeroShotVoice {
  private constructor(
    private readonly tts: ZeroShotTts,
    readonly family: CloningEngineConfig['family'],
  ) {}

  static async load(config: CloningEngineConfig): Promise<ZeroShotVoice> {
    try {
      const tts = await sherpaModule().OfflineTts.createAsync({ model: { ...config.model, numThreads: THREADS } });
      return new ZeroShotVoice(tts, config.family);
    } catch (cause) {
      throw new JobError('model_unavailable', `could not load the ${config.family} model: ${String(cause)}`, { cause });
    }
  }

  get sampleRate(): number {
    return this.tts.sampleRate;
  }

  /** The text spoken in the reference's voice, at sampleRate. An empty result means the model made nothing of it. */
  async speak(request: CloneRequest): Promise<Float32Array> {
    if (this.family === 'zipvoice' && !request.referenceText?.trim()) {
      throw new JobError('invalid_params', 'ZipVoice needs the words said in the reference recording (reference_text)');
    }
    try {
      const audio = await this.tts.generateAsync({
        text: request.text,
        sid: 0,
        speed: request.speed,
        generationConfig: {
          speed: request.speed,
          numSteps: request.numSteps,
          referenceAudio: request.reference,
          referenceSampleRate: request.referenceRate,
          ...(request.referenceText ? { referenceText: request.referenceText } : {}),
        },
        ...(request.onProgress ? { onProgress: (info: { progress: number }) => request.onProgress!(info.progress) } : {}),
      });
      return audio.samples;
    } catch (cause) {
      if (/produced no audio|empty/i.test(String(cause))) return new Float32Array(0);
      throw new JobError('engine_failed', `the ${this.family} model failed: ${String(cause)}`, { cause });
    }
  }
}
