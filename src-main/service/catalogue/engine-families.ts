/**
 * Connects the model manager's packages to the engine areas' family functions (asrFamilyDefinition,
 * ttsFamilyDefinition): every package, installed or not, gets the engine config and params schema of its family, so a
 * client sees what a model accepts before pulling it (a package not yet installed is described with the files it will
 * have). An installed package whose files do not fit its family keeps the manager's generic row; the problem is logged
 * instead of hiding the whole catalogue.
 */
import { asrFamilyDefinition, isAsrFamily } from '../../engines/asr/asr-families.js';
import type { FamilyDefinitionFn, ModelManagerSourceOptions } from '../../engines/models/model-manager-source.js';
import { isTtsFamily, ttsFamilyDefinition } from '../../engines/tts/tts-families.js';

export function engineFamilies(log: (message: string) => void): NonNullable<ModelManagerSourceOptions['families']> {
  const guarded =
    (fn: FamilyDefinitionFn): FamilyDefinitionFn =>
    (family, pkg) => {
      if (!pkg.dir) return null;
      try {
        return fn(family, pkg);
      } catch (error) {
        if (pkg.installed) log(`model ${pkg.id} (${family}) cannot be served: ${(error as Error).message}`);
        return null;
      }
    };
  return {
    asr: guarded((family, pkg) =>
      isAsrFamily(family) ? asrFamilyDefinition(family, { id: pkg.id, dir: pkg.dir!, languages: pkg.languages, files: pkg.files, support: pkg.support }) : null,
    ),
    tts: guarded((family, pkg) =>
      isTtsFamily(family)
        ? ttsFamilyDefinition(family, {
            id: pkg.id,
            dir: pkg.dir!,
            languages: pkg.languages,
            files: pkg.files,
            ...(pkg.numSpeakers !== undefined ? { numSpeakers: pkg.numSpeakers } : {}),
            ...(pkg.sampleRate !== undefined ? { sampleRate: pkg.sampleRate } : {}),
          })
        : null,
    ),
  };
}
