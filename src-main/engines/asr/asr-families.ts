/**
 * Engine fields of an installed sherpa-onnx speech-to-text package (the model manager adds id, name, status…).
 * The params schema (asr-params-schema.ts) lists what the engine honours for the family, and the languages come from
 * the package, or the model itself when the package does not list them (asr-languages.ts).
 */
import type { ModelDefinition } from '../model-definition.js';
import { NO_LIMITS } from '../model-definition.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';
import { modelLanguages } from './asr-languages.js';
import { canaryProblem } from './canary.js';
import { asrParamsSchema } from './asr-params-schema.js';
import { ASR_FAMILIES, type AsrFamily } from '../../common/model-families.js';
import type { SpecFamily } from '../../common/spec-families.js';

/**
 * nemo-transducer: offline transducers (NeMo Parakeet TDT/RNN-T; sherpa-onnx tells the kind from the encoder's
 * metadata). streaming-transducer: online transducers (streaming Zipformer…), run with sherpa-onnx's
 * OnlineRecognizer: they transcribe files too and are the models for live dictation (`live: true`).
 */
export { ASR_FAMILIES, type AsrFamily };

/** Files each family needs, by role (keys of `pkg.files`; values are paths relative to `pkg.dir` or absolute). */
export const ASR_FAMILY_FILES: Record<AsrFamily, readonly string[]> = {
  whisper: ['encoder', 'decoder', 'tokens'],
  'nemo-ctc': ['model', 'tokens'],
  'nemo-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  'streaming-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  moonshine: ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens'],
  'sense-voice': ['model', 'tokens'],
  canary: ['encoder', 'decoder', 'tokens'],
};

/** Families recognised as a stream (OnlineRecognizer): they find their own utterance ends, so no VAD is used. */
export const STREAMING_FAMILIES: readonly AsrFamily[] = ['streaming-transducer'];
export { LANGUAGE_AWARE_FAMILIES, TOKEN_TIMED_FAMILIES, TRANSDUCER_FAMILIES } from './asr-params-schema.js';
export { SENSE_VOICE_LANGUAGES } from './asr-languages.js';

/** Support models (from the model manager) that widen what a package can do. All optional. */
export interface AsrSupportModels {
  /** Silero VAD .onnx: speech segments; without it, fixed 25 s windows cut at quiet moments. */
  sileroVad?: string | null;
  /** Speaker-embedding .onnx and pyannote segmentation .onnx: both needed for speaker_diarization. */
  speakerEmbedding?: string | null;
  pyannoteSegmentation?: string | null;
  /** CT-Transformer punctuation .onnx: punctuation and casing for PUNCTUATED_FAMILIES (punctuation.ts). */
  punctuation?: string | null;
  /** A multilingual Whisper's encoder and decoder for spoken-language identification (language-identification.ts). */
  languageId?: { encoder: string; decoder: string } | null;
}

/**
 * Families told the spoken language rather than detecting it (Canary): with `language` omitted, the installed
 * spoken-language identification model finds it first (language-identification.ts).
 */
export const LANGUAGE_TOLD_FAMILIES: readonly AsrFamily[] = ['canary'];

/** Families whose recognizers give no punctuation, so the punctuation model adds it (the `punctuate` param). */
export const PUNCTUATED_FAMILIES: readonly AsrFamily[] = ['nemo-ctc'];

export interface AsrPackage {
  id: string;
  /** Absolute folder of the installed package. */
  dir: string;
  languages: string[];
  files: Record<string, string>;
  /** Optional (backwards-compatible addition): support model paths, e.g. from manager.supportModelPath(). */
  support?: AsrSupportModels;
  /** Optional: the package's description; when given, the result's description adds how audio is segmented. */
  description?: string;
  /** The spec's family label the package serves: its params table decides what the schema accepts (asr-params-schema.ts). */
  specFamily?: SpecFamily;
  /** false: a package not downloaded yet (its files are not read). Default true. */
  installed?: boolean;
}

/** What the sherpa-asr engine reads from EngineTask.engineConfig. JSON only. */
export interface SherpaAsrEngineConfig {
  family: AsrFamily;
  /** Absolute file paths by role (see ASR_FAMILY_FILES). */
  files: Record<string, string>;
  languages: string[];
  vadModel: string | null;
  diarization: { segmentation: string; embedding: string } | null;
  /** The punctuation model's path when the family takes one and it is installed (punctuation.ts). */
  punctuation?: string | null;
  /** The spoken-language identification model, for LANGUAGE_TOLD_FAMILIES when it is installed. */
  languageId?: { encoder: string; decoder: string } | null;
}

export type AsrFamilyFields = Pick<ModelDefinition, 'engine' | 'engineConfig' | 'paramsSchema' | 'limits' | 'live' | 'acceptsSpeed' | 'languages'> & {
  /** Only when pkg.description was given: it, plus segmentationNote(). */
  description?: string;
};

export function isAsrFamily(value: string): value is AsrFamily {
  return (ASR_FAMILIES as readonly string[]).includes(value);
}

export function asrFamilyDefinition(family: AsrFamily, pkg: AsrPackage): AsrFamilyFields {
  if (!isAsrFamily(family)) throw new Error(`unknown speech-to-text family: ${String(family)}`);
  const files: Record<string, string> = {};
  for (const role of ASR_FAMILY_FILES[family]) {
    const file = pkg.files[role];
    if (!file) throw new Error(`package ${pkg.id} (${family}) lacks its ${role} file`);
    files[role] = file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file) ? file : `${pkg.dir.replace(/[\\/]+$/, '')}/${file}`;
  }
  const support = pkg.support ?? {};
  const diarization =
    support.speakerEmbedding && support.pyannoteSegmentation
      ? { segmentation: support.pyannoteSegmentation, embedding: support.speakerEmbedding }
      : null;
  // sherpa-onnx exits on a Canary vocabulary that does not match its encoder: refused here, with the reason.
  const canary = family === 'canary' && pkg.installed !== false ? canaryProblem(files) : null;
  if (canary) throw new Error(`package ${pkg.id} (canary): ${canary}`);
  // An imported package lists no languages: the model's metadata, files or family tell (asr-languages.ts).
  const languages = modelLanguages(family, files, pkg.languages);
  const engineConfig: SherpaAsrEngineConfig = {
    family,
    files,
    languages,
    vadModel: support.sileroVad ?? null,
    diarization,
    ...(PUNCTUATED_FAMILIES.includes(family) && support.punctuation ? { punctuation: support.punctuation } : {}),
    ...(LANGUAGE_TOLD_FAMILIES.includes(family) && support.languageId ? { languageId: support.languageId } : {}),
  };
  const streaming = STREAMING_FAMILIES.includes(family);
  const note = streaming ? 'A streaming model: it finds pauses itself and can transcribe live.' : segmentationNote(support);
  return {
    ...(pkg.description ? { description: `${pkg.description.trim()} ${note}` } : {}),
    engine: 'sherpa-asr',
    engineConfig: { ...engineConfig },
    languages,
    paramsSchema: asrParamsSchema({
      family,
      languages,
      vad: Boolean(support.sileroVad),
      diarization: diarization !== null,
      punctuation: engineConfig.punctuation ? true : PUNCTUATED_FAMILIES.includes(family) ? false : undefined,
      identifiesLanguage: Boolean(engineConfig.languageId),
      ...(pkg.specFamily ? { specFamily: pkg.specFamily } : {}),
    }),
    limits: { ...NO_LIMITS, max_file_bytes: MAX_FILE_BYTES },
    // Live dictation (docs/engines-and-models.md): streaming models find utterance ends themselves; offline models
    // need Silero VAD to find them.
    live: streaming || Boolean(support.sileroVad),
    acceptsSpeed: false,
  };
}

/** A sentence for the catalogue description: how long recordings are cut with the support models at hand. */
export function segmentationNote(support: AsrSupportModels | undefined): string {
  return support?.sileroVad
    ? 'Long recordings are cut into speech segments by Silero VAD.'
    : 'No VAD model is installed: long recordings are cut into fixed 25 s windows at quiet moments (install Silero VAD for better segments).';
}
