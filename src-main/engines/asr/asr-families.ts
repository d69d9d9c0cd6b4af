/**
 * Engine fields of an installed sherpa-onnx speech-to-text package (the model manager adds id, name, status…).
 * The params schema lists exactly what the engine honours for the family, with the spec's defaults, and nothing it
 * cannot honour (additionalProperties false).
 */
import type { JsonSchema } from '../../common/api-types.js';
import type { ModelDefinition } from '../model-definition.js';
import { NO_LIMITS } from '../model-definition.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';

/**
 * nemo-transducer: offline transducers (NeMo Parakeet TDT/RNN-T; sherpa-onnx tells the kind from the encoder's
 * metadata). streaming-transducer: online transducers (streaming Zipformer…), run with sherpa-onnx's
 * OnlineRecognizer: they transcribe files too and are the models for live dictation (`live: true`).
 */
export const ASR_FAMILIES = ['whisper', 'nemo-ctc', 'nemo-transducer', 'streaming-transducer', 'moonshine', 'sense-voice'] as const;
export type AsrFamily = (typeof ASR_FAMILIES)[number];

/** Files each family needs, by role (keys of `pkg.files`; values are paths relative to `pkg.dir` or absolute). */
export const ASR_FAMILY_FILES: Record<AsrFamily, readonly string[]> = {
  whisper: ['encoder', 'decoder', 'tokens'],
  'nemo-ctc': ['model', 'tokens'],
  'nemo-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  'streaming-transducer': ['encoder', 'decoder', 'joiner', 'tokens'],
  moonshine: ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens'],
  'sense-voice': ['model', 'tokens'],
};

/** Families whose results carry token timestamps, hence word timings. */
export const WORD_TIMED_FAMILIES: readonly AsrFamily[] = ['nemo-ctc', 'nemo-transducer', 'streaming-transducer', 'sense-voice'];
/** Families recognised as a stream (OnlineRecognizer): they find their own utterance ends, so no VAD is used. */
export const STREAMING_FAMILIES: readonly AsrFamily[] = ['streaming-transducer'];
/** Families with a language setting ('auto' detects). */
export const LANGUAGE_AWARE_FAMILIES: readonly AsrFamily[] = ['whisper', 'sense-voice'];
/** SenseVoice's language codes (sherpa-onnx accepts these or '' for auto). */
export const SENSE_VOICE_LANGUAGES = ['zh', 'en', 'ja', 'ko', 'yue'] as const;

/** Support models (from the model manager) that widen what a package can do. All optional. */
export interface AsrSupportModels {
  /** Silero VAD .onnx: speech segments; without it, fixed 25 s windows cut at quiet moments. */
  sileroVad?: string | null;
  /** Speaker-embedding .onnx and pyannote segmentation .onnx: both needed for speaker_diarization. */
  speakerEmbedding?: string | null;
  pyannoteSegmentation?: string | null;
}

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
}

/** What the sherpa-asr engine reads from EngineTask.engineConfig. JSON only. */
export interface SherpaAsrEngineConfig {
  family: AsrFamily;
  /** Absolute file paths by role (see ASR_FAMILY_FILES). */
  files: Record<string, string>;
  languages: string[];
  vadModel: string | null;
  diarization: { segmentation: string; embedding: string } | null;
}

export type AsrFamilyFields = Pick<ModelDefinition, 'engine' | 'engineConfig' | 'paramsSchema' | 'limits' | 'live' | 'acceptsSpeed'> & {
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
  const engineConfig: SherpaAsrEngineConfig = {
    family,
    files,
    languages: family === 'sense-voice' && pkg.languages.length === 0 ? [...SENSE_VOICE_LANGUAGES] : pkg.languages,
    vadModel: support.sileroVad ?? null,
    diarization,
  };
  const streaming = STREAMING_FAMILIES.includes(family);
  const note = streaming ? 'A streaming model: it finds pauses itself and can transcribe live.' : segmentationNote(support);
  return {
    ...(pkg.description ? { description: `${pkg.description.trim()} ${note}` } : {}),
    engine: 'sherpa-asr',
    engineConfig: { ...engineConfig },
    paramsSchema: asrParamsSchema(family, engineConfig.languages, diarization !== null),
    limits: { ...NO_LIMITS, max_file_bytes: MAX_FILE_BYTES },
    // Live dictation (docs/engines-and-models.md): streaming models find utterance ends themselves; offline models
    // need Silero VAD to find them.
    live: streaming || Boolean(support.sileroVad),
    acceptsSpeed: false,
  };
}

export function asrParamsSchema(family: AsrFamily, languages: string[], diarization: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    response_format: {
      type: 'string',
      enum: ['json', 'verbose_json'],
      default: 'verbose_json',
      description: 'json: text only; verbose_json: also language, duration, segments and words.',
    },
    timestamp_granularity: WORD_TIMED_FAMILIES.includes(family)
      ? { type: 'string', enum: ['word', 'segment', 'none'], default: 'word', description: 'Timings in verbose_json.' }
      : { type: 'string', enum: ['segment', 'none'], default: 'segment', description: 'This family gives no word timings.' },
  };
  if (LANGUAGE_AWARE_FAMILIES.includes(family) && languages.length > 0) {
    properties.language = {
      type: 'string',
      enum: ['auto', ...languages],
      default: 'auto',
      description: 'Spoken language; auto detects it.',
    };
  }
  if (family === 'whisper' && languages.length > 1) {
    properties.task = {
      type: 'string',
      enum: ['transcribe', 'translate'],
      default: 'transcribe',
      description: 'translate returns English.',
    };
  }
  if (family === 'sense-voice') {
    properties.use_itn = { type: 'boolean', default: true, description: 'Inverse text normalization (punctuation, numbers).' };
  }
  Object.assign(properties, diarizationParams(diarization));
  return { type: 'object', properties, additionalProperties: false, ...(diarization ? DIARIZATION_RULES : {}) };
}

/** num_speakers means something only with speaker_diarization on: a cross-field rule the schema itself states. */
export const DIARIZATION_RULES: JsonSchema = {
  dependentSchemas: { num_speakers: { required: ['speaker_diarization'], properties: { speaker_diarization: { const: true } } } },
};

/** speaker_diarization / num_speakers, only when the diarization models are installed. */
export function diarizationParams(available: boolean): Record<string, JsonSchema> {
  if (!available) return {};
  return {
    speaker_diarization: { type: 'boolean', default: false, description: 'Label segments and words with speakers.' },
    num_speakers: {
      type: 'integer',
      minimum: 1,
      maximum: 20,
      description: 'Number of speakers when known; omitted: estimated from the audio.',
    },
  };
}

/** A sentence for the catalogue description: how long recordings are cut with the support models at hand. */
export function segmentationNote(support: AsrSupportModels | undefined): string {
  return support?.sileroVad
    ? 'Long recordings are cut into speech segments by Silero VAD.'
    : 'No VAD model is installed: long recordings are cut into fixed 25 s windows at quiet moments (install Silero VAD for better segments).';
}
