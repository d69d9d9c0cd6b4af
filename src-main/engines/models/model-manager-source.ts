/**
 * The model manager's catalogue source: one ModelDefinition per curated or imported package that serves a product
 * (asr, tts, noise_reduction). Installed → available; not installed → unavailable ("not downloaded — voxdesk models
 * pull ID") with `download` info, and `downloading: true` while a download runs (queued jobs then wait with
 * waiting_for_model). Support packages (VAD, embeddings, segmentation) are not listed; their paths go into the ASR
 * definitions through `pkg.support`.
 *
 * Engine fields (engine, engineConfig, params schema, limits…) come from the engine areas' family functions
 * (asrFamilyDefinition, ttsFamilyDefinition, the denoiser's), passed in `families`; without one, a generic
 * definition carries the family and the file paths in engineConfig.
 */
import type { Capability, Product } from '../../common/products.js';
import { NO_LIMITS, type ModelDefinition, type ModelSource } from '../model-definition.js';
import type { ModelSourceContext } from '../model-sources.js';
import type { EngineKind } from '../engine-types.js';
import { packageSize, type ModelPackage } from './curated-models.js';
import type { FamilyFiles, ModelFamily } from './model-families.js';
import type { ModelManager } from './model-manager.js';
import type { InstalledModel } from './model-store.js';

/** What a family function is told about one package. Paths are absolute; empty while not installed. */
export interface ModelPackageInfo {
  id: string;
  name: string;
  description: string;
  family: ModelFamily;
  languages: string[];
  licence: string;
  version: string;
  installed: boolean;
  /** The package folder when installed, else null. */
  dir: string | null;
  /** Role → absolute path (encoder, decoder, joiner, tokens, model, lexicon, dataDir, voices, …); {} when not installed. */
  files: FamilyFiles;
  /** Installed support models, for VAD segmentation and diarization; null when not installed. */
  support: { sileroVad: string | null; speakerEmbedding: string | null; pyannoteSegmentation: string | null };
}

/** The fields an engine area decides for a family; anything left out gets the generic default. */
export type FamilyDefinitionPart = Partial<
  Pick<ModelDefinition, 'engine' | 'engineConfig' | 'products' | 'paramsSchema' | 'live' | 'acceptsSpeed' | 'limits' | 'languages' | 'name' | 'description'>
>;
export type FamilyDefinitionFn = (family: string, pkg: ModelPackageInfo) => FamilyDefinitionPart | null | undefined;

export interface ModelManagerSourceOptions extends ModelSourceContext {
  manager: ModelManager;
  /** Engine-area family functions: asr → asrFamilyDefinition, tts → ttsFamilyDefinition, noise_reduction → the denoiser's. */
  families?: { asr?: FamilyDefinitionFn; tts?: FamilyDefinitionFn; noise_reduction?: FamilyDefinitionFn };
}

const GENERIC: Record<'asr' | 'tts' | 'noise_reduction', { engine: EngineKind; products: Product[] }> = {
  asr: { engine: 'sherpa-asr', products: ['speech-to-text'] },
  tts: { engine: 'sherpa-tts', products: ['text-to-speech'] },
  noise_reduction: { engine: 'gtcrn', products: ['voice-isolator', 'audio-enhancement'] },
};

const EMPTY_PARAMS = { type: 'object', properties: {}, additionalProperties: false };

function absoluteFiles(m: InstalledModel): FamilyFiles {
  const out: FamilyFiles = {};
  for (const [role, rel] of Object.entries(m.files)) out[role] = `${m.dir}/${rel}`;
  return out;
}

export function modelManagerSource(options: ModelManagerSourceOptions): ModelSource {
  const { manager } = options;
  return {
    name: 'model-manager',
    list(): ModelDefinition[] {
      const installed = new Map(manager.installedModels().map((m) => [m.id, m]));
      const support = {
        sileroVad: manager.supportModelPath('silero-vad'),
        speakerEmbedding: manager.supportModelPath('speaker-embedding'),
        pyannoteSegmentation: manager.supportModelPath('pyannote-segmentation'),
      };
      const rows: Array<{ pkg: ModelPackage | null; installed: InstalledModel | null }> = manager
        .curatedPackages()
        .map((pkg) => ({ pkg, installed: installed.get(pkg.id) ?? null }));
      const curatedIds = new Set(rows.map((r) => r.pkg!.id));
      for (const m of installed.values()) if (!curatedIds.has(m.id)) rows.push({ pkg: null, installed: m });

      const out: ModelDefinition[] = [];
      for (const { pkg, installed: m } of rows) {
        const capability = m?.capability ?? pkg!.capability;
        if (capability === 'support') continue;
        const base = (m ?? pkg)!;
        const info: ModelPackageInfo = {
          id: base.id,
          name: base.name,
          description: base.description,
          family: base.family,
          languages: base.languages,
          licence: base.licence,
          version: base.version,
          installed: !!m,
          dir: m?.dir ?? null,
          files: m ? absoluteFiles(m) : {},
          support,
        };
        const part = options.families?.[capability]?.(base.family, info) ?? {};
        const generic = GENERIC[capability];
        const downloading = manager.isDownloading(base.id);
        out.push({
          id: base.id,
          name: part.name ?? base.name,
          description: part.description ?? base.description,
          capability: capability as Capability,
          products: part.products ?? generic.products,
          provider: 'local',
          engine: part.engine ?? generic.engine,
          engineConfig: part.engineConfig ?? { family: base.family, modelDir: info.dir, files: info.files, support },
          languages: part.languages ?? base.languages,
          live: part.live ?? false,
          acceptsSpeed: part.acceptsSpeed ?? false,
          limits: part.limits ?? NO_LIMITS,
          paramsSchema: part.paramsSchema ?? EMPTY_PARAMS,
          status: m ? 'available' : 'unavailable',
          reason: m ? null : downloading ? `downloading — voxdesk models pull ${base.id}` : `not downloaded — voxdesk models pull ${base.id}`,
          downloading,
          download: pkg ? { sizeBytes: packageSize(pkg), installed: !!m, licence: pkg.licence } : null,
        });
      }
      return out;
    },
  };
}
