/**
 * The model manager's catalogue source: one ModelDefinition per curated or imported package that serves a product
 * (asr, tts, noise_reduction). Installed → available; not installed → unavailable ("not downloaded — voxdesk models
 * pull ID") with `download` info, and `downloading: true` while a download runs (queued jobs then wait with
 * waiting_for_model). Support packages (VAD, embeddings, segmentation) are not listed; their paths go into the ASR
 * definitions.
 *
 * Engine fields (engine, engineConfig, params schema, limits…) come from the engine areas' family functions:
 * asrFamilyDefinition, ttsFamilyDefinition and gtcrnDefinition. A package not yet installed gets them for the files
 * it will have (so the catalogue shows its params schema); an installed package whose files the family function
 * rejects is listed unavailable with that reason rather than failing the whole catalogue.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Capability, Product } from '../../common/products.js';
import { asrFamilyDefinition, isAsrFamily } from '../asr/asr-families.js';
import { gtcrnDefinition } from '../denoise/denoise-families.js';
import type { EngineKind } from '../engine-types.js';
import { NO_LIMITS, type ModelDefinition, type ModelSource } from '../model-definition.js';
import type { ModelSourceContext } from '../model-sources.js';
import { isTtsFamily, ttsFamilyDefinition } from '../tts/tts-families.js';
import { packageSize, type OfferedPackage } from './curated-models.js';
import type { FamilyFiles, ModelFamily } from './model-families.js';
import { onnxMetadataOrEmpty } from './onnx-metadata.js';
import type { InstalledModel, ModelManager } from './model-manager.js';

/** What a family function is told about one package. Paths are absolute. */
export interface ModelPackageInfo {
  id: string;
  name: string;
  description: string;
  family: ModelFamily;
  languages: string[];
  licence: string;
  version: string;
  installed: boolean;
  /** The package folder (where it will be, when not installed yet). */
  dir: string;
  /** Role → absolute path (encoder, decoder, joiner, tokens, model, lexicon, dataDir, voices, …). */
  files: FamilyFiles;
  /** Installed support models, for VAD segmentation and diarization; null when not installed. */
  support: { sileroVad: string | null; speakerEmbedding: string | null; pyannoteSegmentation: string | null };
  /** Voices: speakers and output rate when known. */
  numSpeakers?: number;
  sampleRate?: number;
}

/** The fields an engine area decides for a family; anything left out gets the generic default. */
export type FamilyDefinitionPart = Partial<
  Pick<ModelDefinition, 'engine' | 'engineConfig' | 'products' | 'paramsSchema' | 'live' | 'acceptsSpeed' | 'limits' | 'languages' | 'name' | 'description'>
>;
export type FamilyDefinitionFn = (family: string, pkg: ModelPackageInfo) => FamilyDefinitionPart | null | undefined;

export interface ModelManagerSourceOptions extends ModelSourceContext {
  manager: ModelManager;
  /** Override the engine areas' family functions (tests). Default: asrFamilyDefinition, ttsFamilyDefinition, gtcrnDefinition. */
  families?: { asr?: FamilyDefinitionFn; tts?: FamilyDefinitionFn; noise_reduction?: FamilyDefinitionFn };
}

export const DEFAULT_FAMILY_FUNCTIONS: Required<NonNullable<ModelManagerSourceOptions['families']>> = {
  asr: (family, pkg) => (isAsrFamily(family) ? asrFamilyDefinition(family, pkg) : null),
  tts: (family, pkg) =>
    isTtsFamily(family)
      ? ttsFamilyDefinition(family, {
          id: pkg.id,
          dir: pkg.dir,
          languages: pkg.languages,
          files: pkg.files,
          ...(pkg.numSpeakers !== undefined ? { numSpeakers: pkg.numSpeakers } : {}),
          ...(pkg.sampleRate !== undefined ? { sampleRate: pkg.sampleRate } : {}),
        })
      : null,
  noise_reduction: (family, pkg) => (family === 'gtcrn' ? gtcrnDefinition(pkg) : null),
};

const GENERIC: Record<'asr' | 'tts' | 'noise_reduction', { engine: EngineKind; products: Product[] }> = {
  asr: { engine: 'sherpa-asr', products: ['speech-to-text'] },
  tts: { engine: 'sherpa-tts', products: ['text-to-speech'] },
  noise_reduction: { engine: 'gtcrn', products: ['voice-isolator', 'audio-enhancement'] },
};

/** The files a package of each family will have once installed (the expected file names, until the real ones exist). */
const PROSPECTIVE_FILES: Partial<Record<ModelFamily, FamilyFiles>> = {
  whisper: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', tokens: 'tokens.txt' },
  'nemo-ctc': { model: 'model.onnx', tokens: 'tokens.txt' },
  'nemo-transducer': { encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
  'streaming-transducer': { encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
  moonshine: { preprocessor: 'preprocess.onnx', encoder: 'encode.onnx', uncachedDecoder: 'uncached_decode.onnx', cachedDecoder: 'cached_decode.onnx', tokens: 'tokens.txt' },
  'sense-voice': { model: 'model.onnx', tokens: 'tokens.txt' },
  vits: { model: 'model.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt' },
  piper: { model: 'model.onnx', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' },
  kokoro: { model: 'model.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' },
  gtcrn: { model: 'gtcrn.onnx' },
};

const EMPTY_PARAMS = { type: 'object', properties: {}, additionalProperties: false };

function absolute(dir: string, files: FamilyFiles): FamilyFiles {
  const out: FamilyFiles = {};
  for (const [role, rel] of Object.entries(files)) out[role] = join(dir, rel);
  return out;
}

/** Voice facts per model file, read once per process (the file of an installed package does not change). */
const voiceFacts = new Map<string, { numSpeakers?: number; sampleRate?: number }>();

/**
 * Speakers and sample rate of an installed voice: Piper voices ship `<model>.onnx.json`; sherpa-onnx exports (VITS,
 * Kokoro, Matcha) carry `n_speakers` and `sample_rate` in their ONNX metadata. Unknown fields are left out.
 */
function voiceConfig(modelPath: string | undefined): { numSpeakers?: number; sampleRate?: number } {
  if (!modelPath) return {};
  const known = voiceFacts.get(modelPath);
  if (known) return known;
  let numSpeakers: unknown;
  let sampleRate: unknown;
  if (existsSync(`${modelPath}.json`)) {
    try {
      const json = JSON.parse(readFileSync(`${modelPath}.json`, 'utf8')) as { num_speakers?: unknown; audio?: { sample_rate?: unknown } };
      numSpeakers = json.num_speakers;
      sampleRate = json.audio?.sample_rate;
    } catch {
      // a broken .onnx.json: fall back to the model's metadata
    }
  }
  if (typeof numSpeakers !== 'number' || typeof sampleRate !== 'number') {
    const meta = onnxMetadataOrEmpty(modelPath);
    if (typeof numSpeakers !== 'number' && /^\d+$/.test(meta.n_speakers ?? '')) numSpeakers = Number(meta.n_speakers);
    if (typeof sampleRate !== 'number' && /^\d+$/.test(meta.sample_rate ?? '')) sampleRate = Number(meta.sample_rate);
  }
  const facts = {
    ...(typeof numSpeakers === 'number' && numSpeakers >= 1 ? { numSpeakers } : {}),
    ...(typeof sampleRate === 'number' && sampleRate > 0 ? { sampleRate } : {}),
  };
  if (existsSync(modelPath)) voiceFacts.set(modelPath, facts);
  return facts;
}

/** Error messages of an installed package name its files: shown relative to the models folder. */
function withoutModelsDir(message: string, modelsDir: string): string {
  return message.replaceAll(`${modelsDir}${sep}`, '').replaceAll(modelsDir, 'the models folder');
}

export function modelManagerSource(options: ModelManagerSourceOptions): ModelSource {
  const { manager } = options;
  const families = { ...DEFAULT_FAMILY_FUNCTIONS, ...options.families };
  return {
    name: 'model-manager',
    // Everything list() reads comes from the manager (the family functions are pure; a voice's facts are read once).
    version: () => manager.revision(),
    list(): ModelDefinition[] {
      const installed = new Map(manager.installedModels().map((m) => [m.id, m]));
      const support = {
        sileroVad: manager.supportModelPath('silero-vad'),
        speakerEmbedding: manager.supportModelPath('speaker-embedding'),
        pyannoteSegmentation: manager.supportModelPath('pyannote-segmentation'),
      };
      const rows: Array<{ pkg: OfferedPackage | null; installed: InstalledModel | null }> = manager
        .offeredPackages()
        .map((pkg) => ({ pkg, installed: installed.get(pkg.id) ?? null }));
      const offeredIds = new Set(rows.map((r) => r.pkg!.id));
      for (const m of installed.values()) if (!offeredIds.has(m.id)) rows.push({ pkg: null, installed: m });

      const out: ModelDefinition[] = [];
      for (const { pkg, installed: m } of rows) {
        const capability = m?.capability ?? pkg!.capability;
        const family = m?.family ?? pkg!.family;
        // A package added by URL whose family is not known yet serves no product until it is installed.
        if (capability === 'support' || capability === null || family === null) continue;
        const base = { ...(m ?? pkg)!, family };
        const dir = m?.dir ?? join(manager.modelsDir, base.id);
        const files = m ? absolute(m.dir, m.files) : absolute(dir, PROSPECTIVE_FILES[base.family] ?? {});
        // What the installed model says of itself wins over the curated list's expectation.
        const voice = {
          ...(pkg?.numSpeakers !== undefined ? { numSpeakers: pkg.numSpeakers } : {}),
          ...(pkg?.sampleRate !== undefined ? { sampleRate: pkg.sampleRate } : {}),
          ...(capability === 'tts' && m ? voiceConfig(files.model) : {}),
        };
        // The catalogue is public (no key): it must not show where things are on this machine. An import's stored
        // description named the folder it came from (older versions wrote "Imported from /home/…"), so the row says
        // what it is instead; the local account sees the folder in GET /v1/local/models.
        const info: ModelPackageInfo = {
          id: base.id,
          name: base.name,
          description: m?.source === 'imported' ? `Imported ${base.family} model` : base.description,
          family: base.family,
          languages: base.languages,
          licence: base.licence,
          version: base.version,
          installed: !!m,
          dir,
          files,
          support,
          ...voice,
        };
        let part: FamilyDefinitionPart = {};
        let broken: string | null = null;
        try {
          part = families[capability]?.(base.family, info) ?? {};
        } catch (err) {
          if (m) broken = withoutModelsDir((err as Error).message, manager.modelsDir);
        }
        const generic = GENERIC[capability];
        const downloading = manager.isDownloading(base.id);
        const available = !!m && !broken;
        out.push({
          id: base.id,
          name: part.name ?? base.name,
          description: part.description ?? info.description,
          capability: capability as Capability,
          products: part.products ?? generic.products,
          provider: 'local',
          engine: part.engine ?? generic.engine,
          engineConfig: part.engineConfig ?? { family: base.family, files, support },
          languages: part.languages ?? base.languages,
          live: part.live ?? false,
          acceptsSpeed: part.acceptsSpeed ?? false,
          limits: part.limits ?? NO_LIMITS,
          paramsSchema: part.paramsSchema ?? EMPTY_PARAMS,
          status: available ? 'available' : 'unavailable',
          reason: available
            ? null
            : broken
              ? `the installed package is incomplete (${broken}); remove it and pull or import it again`
              : downloading
                ? `downloading — voxdesk models pull ${base.id}`
                : `not downloaded — voxdesk models pull ${base.id}`,
          downloading,
          download: pkg ? { sizeBytes: packageSize(pkg), installed: !!m, licence: pkg.licence } : null,
        });
      }
      return out;
    },
  };
}
