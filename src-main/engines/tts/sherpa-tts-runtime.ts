/**
 * sherpa-onnx-node neural TTS, loaded lazily (only workers that speak with a neural voice pay for it). Always
 * generateAsync: the sync generate() segfaults on text with no known word (../shared/models/tiny/README.md).
 */
import { createRequire } from 'node:module';
import { JobError } from '../../common/errors.js';
import type { SherpaTtsEngineConfig } from './tts-families.js';

interface GeneratedAudio {
  samples: Float32Array;
  sampleRate: number;
}
interface OfflineTtsInstance {
  readonly sampleRate: number;
  readonly numSpeakers: number;
  generateAsync(request: {
    text: string;
    sid: number;
    speed: number;
    /** sherpa-onnx's per-request settings; `extra.lang`: a multilingual Kokoro's espeak-ng voice. */
    generationConfig?: { sid: number; speed: number; extra: Record<string, string> };
    onProgress?: (info: { samples: Float32Array; progress: number }) => number | boolean | void;
  }): Promise<GeneratedAudio>;
}
interface SherpaTtsModule {
  OfflineTts: { createAsync(config: Record<string, unknown>): Promise<OfflineTtsInstance> };
}

/** Threads per voice: engines share 2 cores with the service and other workers. */
export const SHERPA_TTS_THREADS = 1;
const NO_AUDIO = /produced no audio/i;

let sherpa: SherpaTtsModule | undefined;
function sherpaModule(): SherpaTtsModule {
  sherpa ??= createRequire(import.meta.url)('sherpa-onnx-node') as SherpaTtsModule;
  return sherpa;
}

export class SherpaVoice {
  private constructor(
    private readonly tts: OfflineTtsInstance,
    readonly numSpeakers: number,
    /** Per speaker id, the espeak-ng voice a multilingual Kokoro phonemizes with (tts-families.ts). */
    private readonly speakerLanguages: readonly string[] | undefined,
  ) {}

  static async load(config: SherpaTtsEngineConfig): Promise<SherpaVoice> {
    try {
      const tts = await sherpaModule().OfflineTts.createAsync({ model: { ...config.model, numThreads: SHERPA_TTS_THREADS } });
      return new SherpaVoice(tts, tts.numSpeakers, config.speakerLanguages);
    } catch (cause) {
      throw new JobError('model_unavailable', `could not load the ${config.family} voice: ${String(cause)}`, { cause });
    }
  }

  get sampleRate(): number {
    return this.tts.sampleRate;
  }

  /**
   * Speaks one sentence. Text with no word the voice knows gives an empty result (not an error), so that one
   * unknown sentence does not fail a paragraph; `onSamples` streams chunks as the model makes them.
   */
  async synthesize(
    text: string,
    options: { speaker: number; speed: number },
    onSamples?: (samples: Float32Array) => boolean | void,
  ): Promise<Float32Array> {
    if (!Number.isInteger(options.speaker) || options.speaker < 0 || options.speaker >= Math.max(1, this.numSpeakers)) {
      throw new JobError('invalid_params', `speaker must be an integer 0–${Math.max(1, this.numSpeakers) - 1}`);
    }
    // Requests are held to 0.5–2 by the params schema; a designed voice's pitch shift speaks up to 4 semitones
    // (a factor 1.26) slower or faster than that before it resamples (design/pitch-shift.ts).
    if (!(options.speed >= 0.35 && options.speed <= 2.6)) throw new JobError('invalid_params', 'speed must be between 0.5 and 2');
    try {
      const lang = this.speakerLanguages?.[options.speaker];
      const audio = await this.tts.generateAsync({
        text,
        sid: options.speaker,
        speed: options.speed,
        ...(lang ? { generationConfig: { sid: options.speaker, speed: options.speed, extra: { lang } } } : {}),
        // sherpa: return 0/false to stop, anything else to go on.
        onProgress: onSamples ? (info) => onSamples(info.samples) !== true : undefined,
      });
      return audio.samples;
    } catch (cause) {
      if (NO_AUDIO.test(String(cause))) return new Float32Array(0);
      throw new JobError('engine_failed', `neural voice failed: ${String(cause)}`, { cause });
    }
  }
}
