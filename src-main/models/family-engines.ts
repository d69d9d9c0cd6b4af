/**
 * The one mapping of model family → what serves it: the capability a package of the family has, the engine that runs
 * it, the product routes that accept it, and the engine area's function that turns a package's files into the
 * catalogue row's engine fields (engine config, params schema, limits, languages). The catalogue source
 * (catalogue-source.ts), the downloads, the imports and the packages added by URL all ask here; a new family is one
 * entry of FAMILY_ENGINES (TypeScript refuses a family without one).
 */
import type { AsrFamily, ModelFamily } from '../common/model-families.js';
import type { Product } from '../common/products.js';
import type { SpecFamily } from '../common/spec-families.js';
import { asrFamilyDefinition } from '../engines/asr/asr-families.js';
import { dpdfnetDefinition, gtcrnDefinition } from '../engines/denoise/denoise-families.js';
import { separationDefinition } from '../engines/separation/separation-families.js';
import { cloningDefinition } from '../engines/cloning/cloning-families.js';
import type { EngineKind } from '../engines/engine-types.js';
import type { ModelDefinition } from '../engines/model-definition.js';
import { ttsFamilyDefinition, type TtsFamily } from '../engines/tts/tts-families.js';
import type { FamilyFiles } from './layouts/detect-layout.js';

/** What a package is for: catalogue capabilities, or 'support' for models the ASR engines use (VAD, diarization). */
export type PackageCapability = 'asr' | 'tts' | 'noise_reduction' | 'stem_separation' | 'voice_cloning' | 'support';

/** The support models an ASR package can use, found among the installed packages (null: none installed). */
export interface SupportPaths {
  sileroVad: string | null;
  speakerEmbedding: string | null;
  pyannoteSegmentation: string | null;
  /** A CT-Transformer punctuation model: punctuation and casing for recognizers that give none. */
  punctuation: string | null;
  /** A multilingual Whisper for spoken-language identification: recognizers told a language find it first. */
  languageId: { encoder: string; decoder: string } | null;
}

/** What an engine area is told about one package. Paths are absolute. */
export interface ModelPackageInfo {
  id: string;
  family: ModelFamily;
  languages: string[];
  installed: boolean;
  /** The package folder (where it will be, when not installed yet). */
  dir: string;
  /** Role → absolute path (encoder, decoder, joiner, tokens, model, lexicon, dataDir, voices, …). */
  files: FamilyFiles;
  support: SupportPaths;
  /** Voices: speakers and output rate when known. */
  numSpeakers?: number;
  sampleRate?: number;
  speakerNames?: string[];
  /** The spec's family label the package serves (its params table applies). */
  specFamily?: SpecFamily;
}

/** The fields an engine area decides for a package; the rest of the catalogue row comes from the package. */
export type FamilyDefinitionPart = Pick<ModelDefinition, 'engine' | 'engineConfig' | 'paramsSchema' | 'live' | 'acceptsSpeed' | 'limits'> &
  Partial<Pick<ModelDefinition, 'languages'>>;

export interface FamilyEngine {
  capability: PackageCapability;
  /** The engine that runs the family's packages (null: support models, which serve no route of their own). */
  engine: EngineKind | null;
  products: readonly Product[];
  /** The engine fields of a package of the family; throws (naming what is wrong) when its files do not fit. */
  define(pkg: ModelPackageInfo): FamilyDefinitionPart | null;
}

/** The named fields of the package, those it lacks left out (exactOptionalPropertyTypes: absent, never undefined). */
function packageFields<K extends keyof ModelPackageInfo>(pkg: ModelPackageInfo, keys: readonly K[]): Pick<ModelPackageInfo, K> {
  return Object.fromEntries(keys.filter((key) => pkg[key] !== undefined).map((key) => [key, pkg[key]])) as Pick<ModelPackageInfo, K>;
}

const speechToText: FamilyEngine = {
  capability: 'asr',
  engine: 'sherpa-asr',
  products: ['speech-to-text'],
  define: (pkg) => asrFamilyDefinition(pkg.family as AsrFamily, packageFields(pkg, ['id', 'dir', 'languages', 'files', 'support', 'installed', 'specFamily'])),
};

const voice: FamilyEngine = {
  capability: 'tts',
  engine: 'sherpa-tts',
  products: ['text-to-speech'],
  define: (pkg) => ttsFamilyDefinition(pkg.family as TtsFamily, packageFields(pkg, ['id', 'dir', 'languages', 'files', 'numSpeakers', 'sampleRate', 'speakerNames'])),
};

/** Spleeter and UVR: the stem-separation product (engines/separation). */
function stemSeparation(family: 'spleeter' | 'uvr'): FamilyEngine {
  return {
    capability: 'stem_separation',
    engine: 'sherpa-separation',
    products: ['stem-separation'],
    define: (pkg) => separationDefinition({ id: pkg.id, family, files: pkg.files }),
  };
}

/** ZipVoice and Pocket TTS: voice-cloning, voice-continuation and voice-conversion (engines/cloning), one row for all. */
function zeroShotVoice(family: 'zipvoice' | 'pocket'): FamilyEngine {
  return {
    capability: 'voice_cloning',
    engine: 'sherpa-cloning',
    products: ['voice-cloning', 'voice-continuation', 'voice-conversion'],
    define: (pkg) => cloningDefinition({ id: pkg.id, family, dir: pkg.dir, files: pkg.files }),
  };
}

const support: FamilyEngine = { capability: 'support', engine: null, products: [], define: () => null };

export const FAMILY_ENGINES: Record<ModelFamily, FamilyEngine> = {
  whisper: speechToText,
  'nemo-ctc': speechToText,
  'nemo-transducer': speechToText,
  'streaming-transducer': speechToText,
  moonshine: speechToText,
  'sense-voice': speechToText,
  canary: speechToText,
  vits: voice,
  piper: voice,
  kokoro: voice,
  matcha: voice,
  kitten: voice,
  gtcrn: { capability: 'noise_reduction', engine: 'gtcrn', products: ['voice-isolator', 'audio-enhancement'], define: (pkg) => gtcrnDefinition(pkg) },
  dpdfnet: { capability: 'noise_reduction', engine: 'dpdfnet', products: ['voice-isolator', 'audio-enhancement'], define: (pkg) => dpdfnetDefinition(pkg) },
  spleeter: stemSeparation('spleeter'),
  uvr: stemSeparation('uvr'),
  zipvoice: zeroShotVoice('zipvoice'),
  pocket: zeroShotVoice('pocket'),
  'silero-vad': support,
  'speaker-embedding': support,
  'pyannote-segmentation': support,
  punctuation: support,
  'language-id': support,
};

export function familyCapability(family: ModelFamily): PackageCapability {
  return FAMILY_ENGINES[family].capability;
}
