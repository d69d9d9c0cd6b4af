/**
 * sherpa-onnx OfflineRecognizer configs per family, and a small cache of loaded recognizers per worker process.
 * Language and task are part of a Whisper/SenseVoice recognizer's config, so they are part of the cache key.
 */
import { existsSync } from 'node:fs';
import { JobError } from '../../common/errors.js';
import { isAsrFamily, type AsrFamily, type SherpaAsrEngineConfig } from './asr-families.js';
import { loadSherpa, type SherpaOfflineRecognizer } from './sherpa-native.js';

/** Recognizers kept loaded per worker (each holds its model in memory). Default 2. */
export const RECOGNIZER_CACHE_SIZE = 2;

export interface RecognizerSettings {
  /** '' detects (Whisper, SenseVoice). */
  language: string;
  task: 'transcribe' | 'translate';
  useItn: boolean;
}

/** Validates engineConfig as produced by asrFamilyDefinition (it crosses a process boundary as JSON). */
export function parseEngineConfig(raw: Record<string, unknown>): SherpaAsrEngineConfig {
  const family = String(raw.family ?? '');
  if (!isAsrFamily(family)) throw new JobError('engine_failed', `unknown speech-to-text family "${family}"`);
  const files = raw.files as Record<string, string> | undefined;
  if (!files || typeof files !== 'object') throw new JobError('engine_failed', 'the model definition lists no files');
  for (const [role, path] of Object.entries(files)) {
    if (typeof path !== 'string' || !existsSync(path)) {
      throw new JobError('model_unavailable', `the model's ${role} file is missing (${String(path)}); reinstall the model`);
    }
  }
  const diarization = raw.diarization as SherpaAsrEngineConfig['diarization'] | undefined;
  return {
    family,
    files,
    languages: Array.isArray(raw.languages) ? raw.languages.map(String) : [],
    vadModel: typeof raw.vadModel === 'string' && existsSync(raw.vadModel) ? raw.vadModel : null,
    diarization: diarization && typeof diarization === 'object' ? diarization : null,
  };
}

export function recognizerConfig(config: SherpaAsrEngineConfig, settings: RecognizerSettings): Record<string, unknown> {
  const f = config.files;
  const common = { tokens: f.tokens, numThreads: 1, debug: 0 };
  const families: Record<AsrFamily, () => Record<string, unknown>> = {
    whisper: () => ({
      whisper: { encoder: f.encoder, decoder: f.decoder, language: settings.language, task: settings.task },
    }),
    'nemo-ctc': () => ({ nemoCtc: { model: f.model } }),
    'nemo-transducer': () => ({
      transducer: { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner },
      modelType: 'nemo_transducer',
    }),
    moonshine: () => ({
      moonshine: {
        preprocessor: f.preprocessor,
        encoder: f.encoder,
        uncachedDecoder: f.uncachedDecoder,
        cachedDecoder: f.cachedDecoder,
      },
    }),
    'sense-voice': () => ({
      senseVoice: { model: f.model, language: settings.language, useInverseTextNormalization: settings.useItn ? 1 : 0 },
    }),
  };
  return {
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { ...families[config.family](), ...common },
    decodingMethod: 'greedy_search',
  };
}

const cache = new Map<string, SherpaOfflineRecognizer>();

/** A loaded recognizer for this config, created on first use (least recently used ones are dropped). */
export function getRecognizer(config: SherpaAsrEngineConfig, settings: RecognizerSettings): SherpaOfflineRecognizer {
  const full = recognizerConfig(config, settings);
  const key = JSON.stringify(full);
  let recognizer = cache.get(key);
  if (recognizer) {
    cache.delete(key);
  } else {
    try {
      recognizer = new (loadSherpa().OfflineRecognizer)(full);
    } catch (cause) {
      throw new JobError('engine_failed', `the ${config.family} model could not be loaded: ${(cause as Error).message}`, { cause });
    }
  }
  cache.set(key, recognizer);
  while (cache.size > RECOGNIZER_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return recognizer;
}

export function clearRecognizers(): void {
  cache.clear();
}
