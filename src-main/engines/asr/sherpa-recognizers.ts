/**
 * sherpa-onnx recognizer configs per family (OfflineRecognizer; OnlineRecognizer for streaming transducers), and a
 * small cache of loaded recognizers per worker process. Language and task are part of a Whisper/SenseVoice
 * recognizer's config, so they are part of the cache key.
 */
import { existsSync } from 'node:fs';
import { JobError } from '../../common/errors.js';
import { isAsrFamily, type AsrFamily, type SherpaAsrEngineConfig } from './asr-families.js';
import { loadSherpa, type SherpaOfflineRecognizer, type SherpaOnlineRecognizer } from './sherpa-native.js';

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
  const families: Record<Exclude<AsrFamily, 'streaming-transducer'>, () => Record<string, unknown>> = {
    whisper: () => ({
      whisper: { encoder: f.encoder, decoder: f.decoder, language: settings.language, task: settings.task },
    }),
    'nemo-ctc': () => ({ nemoCtc: { model: f.model } }),
    // No modelType: sherpa-onnx reads the encoder's metadata and loads NeMo (TDT, RNN-T) and icefall offline
    // transducers alike; naming one would break the other.
    'nemo-transducer': () => ({
      transducer: { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner },
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
  if (config.family === 'streaming-transducer') throw new Error('a streaming transducer needs onlineRecognizerConfig()');
  return {
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { ...families[config.family](), ...common },
    decodingMethod: 'greedy_search',
  };
}

/**
 * Endpoint rules of streaming recognition (sherpa-onnx's defaults for its examples): an utterance ends after 2.4 s
 * of silence with nothing recognised, 1.2 s of silence after words, or at 20 s.
 */
export const STREAMING_ENDPOINT_RULES = { rule1MinTrailingSilence: 2.4, rule2MinTrailingSilence: 1.2, rule3MinUtteranceLength: 20 } as const;

export function onlineRecognizerConfig(config: SherpaAsrEngineConfig): Record<string, unknown> {
  const f = config.files;
  return {
    // featureDim must be 80 for streaming Zipformer (the shape of one of its states depends on it).
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { transducer: { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner }, tokens: f.tokens, numThreads: 1, debug: 0 },
    decodingMethod: 'greedy_search',
    enableEndpoint: 1,
    ...STREAMING_ENDPOINT_RULES,
  };
}

type AnyRecognizer = SherpaOfflineRecognizer | SherpaOnlineRecognizer;
const cache = new Map<string, AnyRecognizer>();

function cached<T extends AnyRecognizer>(family: AsrFamily, full: Record<string, unknown>, create: (config: Record<string, unknown>) => T): T {
  const key = JSON.stringify(full);
  let recognizer = cache.get(key) as T | undefined;
  if (recognizer) {
    cache.delete(key);
  } else {
    try {
      recognizer = create(full);
    } catch (cause) {
      throw new JobError('engine_failed', `the ${family} model could not be loaded: ${(cause as Error).message}`, { cause });
    }
  }
  cache.set(key, recognizer);
  while (cache.size > RECOGNIZER_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return recognizer;
}

/** A loaded recognizer for this config, created on first use (least recently used ones are dropped). */
export function getRecognizer(config: SherpaAsrEngineConfig, settings: RecognizerSettings): SherpaOfflineRecognizer {
  return cached(config.family, recognizerConfig(config, settings), (full) => new (loadSherpa().OfflineRecognizer)(full));
}

/** A loaded streaming recognizer (streaming-transducer), cached like getRecognizer. */
export function getOnlineRecognizer(config: SherpaAsrEngineConfig): SherpaOnlineRecognizer {
  return cached(config.family, onlineRecognizerConfig(config), (full) => new (loadSherpa().OnlineRecognizer)(full));
}

export function clearRecognizers(): void {
  cache.clear();
}
