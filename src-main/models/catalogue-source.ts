/**
 * The model manager's catalogue source: one ModelDefinition per curated, added or imported package that serves a
 * product. Installed → available; not installed → unavailable ("not downloaded — voxdesk models pull ID") with
 * `download` info, and `downloading: true` while a download runs (queued jobs then wait with waiting_for_model).
 * Support packages (VAD, embeddings, segmentation) are not listed; their paths go into the ASR definitions.
 *
 * The engine fields come from the family's engine (family-engines.ts). A package not yet installed gets them for the
 * files it will have (so the catalogue shows its params schema); an installed package whose files the engine rejects
 * is listed unavailable with that reason (and logged) rather than failing the whole catalogue.
 */
import { join, sep } from 'node:path';
import type { Capability } from '../common/products.js';
import { NO_LIMITS, type ModelDefinition, type ModelSource } from '../engines/model-definition.js';
import type { ModelSourceContext } from '../engines/model-sources.js';
import { FAMILY_ENGINES, type FamilyDefinitionPart, type ModelPackageInfo, type SupportPaths } from './family-engines.js';
import type { InstalledModel } from './installed-store.js';
import { FAMILY_LAYOUTS } from './layouts/family-layouts.js';
import type { FamilyFiles } from './layouts/layout-types.js';
import type { ModelManager } from './model-manager.js';
import { packageSize, type OfferedPackage } from './packages/curated-models.js';
import { specFamilyGapDefinitions } from './spec-family-gaps.js';
import { voiceFacts } from './voice-facts.js';
import { voiceDesignDefinition } from '../engines/tts/design/voice-design-row.js';
import type { Log } from '../common/log.js';

export interface ModelManagerSourceOptions extends ModelSourceContext {
  manager: ModelManager;
  /** Why an installed package cannot be served, for the operator. Default: not logged. */
  log?: Log;
}

const EMPTY_PARAMS = { type: 'object', properties: {}, additionalProperties: false };

function absolute(dir: string, files: FamilyFiles): FamilyFiles {
  const out: FamilyFiles = {};
  for (const [role, rel] of Object.entries(files)) out[role] = join(dir, rel);
  return out;
}

/** The language-identification model's encoder and decoder, when one is installed with both. */
function languageIdFiles(files: Record<string, string> | null): SupportPaths['languageId'] {
  return files?.encoder && files.decoder ? { encoder: files.encoder, decoder: files.decoder } : null;
}

/** Error messages of an installed package name its files: shown relative to the models folder. */
function withoutModelsDir(message: string, modelsDir: string): string {
  return message.replaceAll(`${modelsDir}${sep}`, '').replaceAll(modelsDir, 'the models folder');
}

export function modelManagerSource(options: ModelManagerSourceOptions): ModelSource {
  const { manager } = options;
  // The spec families no open model serves here: fixed rows saying why (spec-family-gaps.ts).
  const gaps = specFamilyGapDefinitions();
  return {
    name: 'model-manager',
    // Everything list() reads comes from the manager (the engine functions are pure; a voice's facts are read once).
    version: () => manager.revision(),
    list(): ModelDefinition[] {
      const installed = new Map(manager.installedModels().map((m) => [m.id, m]));
      const support: SupportPaths = {
        sileroVad: manager.supportModelPath('silero-vad'),
        speakerEmbedding: manager.supportModelPath('speaker-embedding'),
        pyannoteSegmentation: manager.supportModelPath('pyannote-segmentation'),
        punctuation: manager.supportModelPath('punctuation'),
        languageId: languageIdFiles(manager.supportModelFiles('language-id')),
      };
      const rows: Array<{ pkg: OfferedPackage | null; installed: InstalledModel | null }> = manager
        .offeredPackages()
        .map((pkg) => ({ pkg, installed: installed.get(pkg.id) ?? null }));
      const offeredIds = new Set(rows.map((r) => r.pkg!.id));
      for (const m of installed.values()) if (!offeredIds.has(m.id)) rows.push({ pkg: null, installed: m });
      const out: ModelDefinition[] = [...gaps];
      for (const row of rows) {
        const definition = packageDefinition(row.pkg, row.installed, support, options);
        if (!definition) continue;
        out.push(definition);
        // Voice design on each installed multi-speaker Kokoro (engines/tts/design/voice-design-row.ts).
        const design = voiceDesignDefinition(definition);
        if (design && !installed.has(design.id)) out.push(design);
      }
      return out;
    },
  };
}

/** The catalogue row of one package, or null when it serves no product (support models, a URL package of unknown family). */
function packageDefinition(
  pkg: OfferedPackage | null,
  m: InstalledModel | null,
  support: SupportPaths,
  { manager, log }: ModelManagerSourceOptions,
): ModelDefinition | null {
  const family = m?.family ?? pkg!.family;
  // A package added by URL whose family is not known yet serves no product until it is installed.
  if (family === null) return null;
  const engine = FAMILY_ENGINES[family];
  const capability = m?.capability ?? pkg!.capability ?? engine.capability;
  if (capability === 'support' || engine.engine === null) return null;
  const base = (m ?? pkg)!;
  const dir = m?.dir ?? join(manager.modelsDir, base.id);
  const files = m ? absolute(m.dir, m.files) : absolute(dir, FAMILY_LAYOUTS[family].expected ?? {});
  // What the installed model says of itself wins over the curated list's expectation.
  const voice = {
    ...(pkg?.numSpeakers !== undefined ? { numSpeakers: pkg.numSpeakers } : {}),
    ...(pkg?.sampleRate !== undefined ? { sampleRate: pkg.sampleRate } : {}),
    ...(pkg?.speakerNames !== undefined ? { speakerNames: pkg.speakerNames } : {}),
    ...(capability === 'tts' && m ? voiceFacts(files.model ?? files.acousticModel) : {}),
  };
  const specFamily = pkg?.specFamily;
  const info: ModelPackageInfo = { id: base.id, family, languages: base.languages, installed: !!m, dir, files, support, ...voice, ...(specFamily ? { specFamily } : {}) };
  let part: FamilyDefinitionPart | null = null;
  let broken: string | null = null;
  try {
    part = engine.define(info);
  } catch (err) {
    if (m) {
      broken = withoutModelsDir((err as Error).message, manager.modelsDir);
      log?.warn(`model ${base.id} (${family}) cannot be served: ${(err as Error).message}`);
    }
  }
  const downloading = manager.isDownloading(base.id);
  const available = !!m && !broken;
  return {
    id: base.id,
    name: base.name,
    // The catalogue is public (no key): it must not show where things are on this machine. An import's stored
    // description named the folder it came from (older versions wrote "Imported from /home/…"), so the row says
    // what it is instead; the local account sees the folder in GET /v1/local/models.
    description: m?.source === 'imported' ? `Imported ${family} model` : base.description,
    capability: capability as Capability,
    products: [...engine.products],
    provider: 'local',
    engine: part?.engine ?? engine.engine,
    engineConfig: part?.engineConfig ?? { family, files, support },
    languages: part?.languages ?? base.languages,
    live: part?.live ?? false,
    acceptsSpeed: part?.acceptsSpeed ?? false,
    limits: part?.limits ?? NO_LIMITS,
    paramsSchema: part?.paramsSchema ?? EMPTY_PARAMS,
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
    specFamily: specFamily ?? null,
  };
}
