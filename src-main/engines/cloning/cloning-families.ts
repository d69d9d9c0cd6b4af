/**
 * Catalogue fields of the zero-shot voice families for the model manager: ZipVoice (an encoder, a flow-matching
 * decoder, a Vocos vocoder, tokens, lexicon and espeak-ng-data; it needs the reference's words) and Kyutai's Pocket
 * TTS (two language-model halves, the Mimi encoder and decoder, a text conditioner and its SentencePiece vocabulary;
 * the reference audio alone). Both serve voice-cloning, voice-continuation and voice-conversion through engine
 * `sherpa-cloning`.
 */
import { isAbsolute, join } from 'node:path';
import type { ModelLimits } from '../../common/api-types.js';
import type { ModelDefinition } from '../model-definition.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';
import { cloningParamsSchema, MAX_CLONING_TEXT_CHARS, MAX_CONVERSION_SECONDS } from './cloning-params.js';

export const CLONING_FAMILY_NAMES = ['zipvoice', 'pocket'] as const;
export type CloningFamily = (typeof CLONING_FAMILY_NAMES)[number];

/** engineConfig of a zero-shot voice (JSON only). */
export interface CloningEngineConfig {
  family: CloningFamily;
  /** sherpa-onnx OfflineTtsModelConfig without numThreads: `{zipvoice: {...}}` or `{pocket: {...}}`, absolute paths. */
  model: Record<string, Record<string, string>>;
  /** The model's output rate when known (24 kHz for both families' releases). */
  sampleRate: number | null;
}

/** Roles (sherpa-onnx-node's config keys) each family needs. */
const REQUIRED: Record<CloningFamily, readonly string[]> = {
  zipvoice: ['encoder', 'decoder', 'vocoder', 'tokens', 'dataDir', 'lexicon'],
  pocket: ['lmFlow', 'lmMain', 'encoder', 'decoder', 'textConditioner', 'vocabJson', 'tokenScoresJson'],
};

/**
 * max_audio_seconds is the longest recording voice-conversion re-voices; the voice's own recording (reference_audio,
 * or the recording a continuation continues) is 1-30 s and at most MAX_REFERENCE_BYTES, checked when the request
 * arrives (service/routes/voice-reference.ts). The text is at most MAX_CLONING_TEXT_CHARS.
 */
export const CLONING_LIMITS: ModelLimits = { max_file_bytes: MAX_FILE_BYTES, max_audio_seconds: MAX_CONVERSION_SECONDS, max_text_chars: MAX_CLONING_TEXT_CHARS };

/** Both families release 24 kHz models (ZipVoice's decoder metadata, Pocket TTS's Mimi codec). */
export const CLONING_SAMPLE_RATE = 24_000;

export interface CloningPackage {
  id: string;
  family: CloningFamily;
  dir: string;
  files: Record<string, string>;
}

export type CloningFamilyFields = Pick<ModelDefinition, 'engine' | 'engineConfig' | 'paramsSchema' | 'limits' | 'live' | 'acceptsSpeed'>;

export function isCloningFamily(value: string): value is CloningFamily {
  return (CLONING_FAMILY_NAMES as readonly string[]).includes(value);
}

export function cloningEngineConfig(pkg: CloningPackage): CloningEngineConfig {
  const missing = REQUIRED[pkg.family].filter((role) => !pkg.files[role]);
  if (missing.length > 0) throw new Error(`${pkg.id}: a ${pkg.family} package lacks ${missing.join(', ')}`);
  const files: Record<string, string> = {};
  for (const role of REQUIRED[pkg.family]) {
    const file = pkg.files[role]!;
    files[role] = isAbsolute(file) ? file : join(pkg.dir, file);
  }
  return { family: pkg.family, model: { [pkg.family]: files }, sampleRate: CLONING_SAMPLE_RATE };
}

/** The catalogue fields of a zero-shot voice package (one row serving voice-cloning and voice-continuation). */
export function cloningDefinition(pkg: CloningPackage): CloningFamilyFields {
  const config = cloningEngineConfig(pkg);
  return {
    engine: 'sherpa-cloning',
    engineConfig: { ...config },
    paramsSchema: cloningParamsSchema(config.sampleRate),
    limits: CLONING_LIMITS,
    live: false,
    acceptsSpeed: true,
  };
}
