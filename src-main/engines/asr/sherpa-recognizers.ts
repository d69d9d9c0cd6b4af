/**
 * sherpa-onnx recognizer configs per family (OfflineRecognizer; OnlineRecognizer for streaming transducers), and a
 * small cache of loaded recognizers per worker process. Language, task and the decoding options are part of a
 * recognizer's config, so they are part of the cache key. Option names are sherpa-onnx-node 1.13.8's own (its
 * addon reads decodingMethod, maxActivePaths, blankPenalty, hotwordsFile/hotwordsScore at the top level and
 * whisper.tailPaddings / enableTokenTimestamps in the model config).
 */
import { existsSync } from 'node:fs';
import { JobError } from '../../common/errors.js';
import { isAsrFamily, type AsrFamily, type SherpaAsrEngineConfig } from './asr-families.js';
import type { DecodingMethod } from './asr-params.js';
import { DEFAULT_HOTWORDS_SCORE, DEFAULT_MAX_ACTIVE_PATHS, TRANSDUCER_FAMILIES } from './asr-params-schema.js';
import { loadSherpa, type SherpaOfflineRecognizer, type SherpaOnlineRecognizer } from './sherpa-native.js';

/** Recognizers kept loaded per worker (each holds its model in memory). Default 2. */
export const RECOGNIZER_CACHE_SIZE = 2;

export interface RecognizerSettings {
  /** '' detects (Whisper, SenseVoice). */
  language: string;
  task: 'transcribe' | 'translate';
  useItn: boolean;
  /** Transducers only (a CTC model given modified_beam_search ends the process). Default greedy_search. */
  decodingMethod?: DecodingMethod;
  /** Beam of modified_beam_search. Default 4. */
  maxActivePaths?: number;
  /** Transducers: subtracted from the blank score. Default 0. */
  blankPenalty?: number;
  /** Boost of per-stream hotwords (createStream(hotwords)). Default 1.5. */
  hotwordsScore?: number;
  /** Whisper: feature frames of padding after the audio; -1 = sherpa-onnx's default. Default -1. */
  tailPaddings?: number;
  /** Whisper: ask for token timestamps (exports with attention outputs give them). Default false. */
  tokenTimestamps?: boolean;
}

/** What a streaming transducer's config may vary by (OnlineRecognizer takes hotwords only from a file). */
export interface OnlineRecognizerSettings {
  decodingMethod?: DecodingMethod;
  maxActivePaths?: number;
  blankPenalty?: number;
  /** A file of hotword lines (hotword-tokens.ts), or undefined for none. */
  hotwordsFile?: string;
  hotwordsScore?: number;
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
  const languageId = raw.languageId as { encoder?: unknown; decoder?: unknown } | undefined;
  const identifies = typeof languageId?.encoder === 'string' && typeof languageId.decoder === 'string' && existsSync(languageId.encoder) && existsSync(languageId.decoder);
  return {
    family,
    files,
    ...(typeof raw.punctuation === 'string' && existsSync(raw.punctuation) ? { punctuation: raw.punctuation } : {}),
    ...(identifies ? { languageId: { encoder: languageId.encoder as string, decoder: languageId.decoder as string } } : {}),
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
      whisper: {
        encoder: f.encoder,
        decoder: f.decoder,
        language: settings.language,
        task: settings.task,
        tailPaddings: settings.tailPaddings ?? -1,
        ...(settings.tokenTimestamps ? { enableTokenTimestamps: 1 } : {}),
      },
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
    // Canary is told the language it hears and the one to write (the same: it transcribes); auto is English.
    canary: () => ({
      canary: { encoder: f.encoder, decoder: f.decoder, srcLang: settings.language || 'en', tgtLang: settings.language || 'en', usePnc: 1 },
    }),
  };
  if (config.family === 'streaming-transducer') throw new Error('a streaming transducer needs onlineRecognizerConfig()');
  const transducer = TRANSDUCER_FAMILIES.includes(config.family);
  return {
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { ...families[config.family](), ...common },
    // Only transducers choose: modified beam search on a CTC model ends sherpa-onnx's process (models/tiny).
    decodingMethod: transducer ? (settings.decodingMethod ?? 'greedy_search') : 'greedy_search',
    ...(transducer
      ? {
          maxActivePaths: settings.maxActivePaths ?? DEFAULT_MAX_ACTIVE_PATHS,
          blankPenalty: settings.blankPenalty ?? 0,
          hotwordsScore: settings.hotwordsScore ?? DEFAULT_HOTWORDS_SCORE,
        }
      : {}),
  };
}

/**
 * Endpoint rules of streaming recognition (sherpa-onnx's defaults for its examples): an utterance ends after 2.4 s
 * of silence with nothing recognised, 1.2 s of silence after words, or at 20 s.
 */
export const STREAMING_ENDPOINT_RULES = { rule1MinTrailingSilence: 2.4, rule2MinTrailingSilence: 1.2, rule3MinUtteranceLength: 20 } as const;

export function onlineRecognizerConfig(config: SherpaAsrEngineConfig, settings: OnlineRecognizerSettings = {}): Record<string, unknown> {
  const f = config.files;
  return {
    // featureDim must be 80 for streaming Zipformer (the shape of one of its states depends on it).
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: { transducer: { encoder: f.encoder, decoder: f.decoder, joiner: f.joiner }, tokens: f.tokens, numThreads: 1, debug: 0 },
    decodingMethod: settings.decodingMethod ?? 'greedy_search',
    maxActivePaths: settings.maxActivePaths ?? DEFAULT_MAX_ACTIVE_PATHS,
    blankPenalty: settings.blankPenalty ?? 0,
    ...(settings.hotwordsFile ? { hotwordsFile: settings.hotwordsFile, hotwordsScore: settings.hotwordsScore ?? DEFAULT_HOTWORDS_SCORE } : {}),
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
export function getOnlineRecognizer(config: SherpaAsrEngineConfig, settings: OnlineRecognizerSettings = {}): SherpaOnlineRecognizer {
  return cached(config.family, onlineRecognizerConfig(config, settings), (full) => new (loadSherpa().OnlineRecognizer)(full));
}

export function clearRecognizers(): void {
  cache.clear();
}
