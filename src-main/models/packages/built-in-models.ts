/**
 * Models shipped inside Voxdesk (`resources/models/`, with their licences and sources in its README), installed from
 * the first start with nothing to download: Silero VAD v5 (MIT, 2.3 MB), so dictation works with every offline
 * recognizer — PocketSphinx included — and long recordings are cut at pauses, from the first start and offline.
 *
 * A built-in model is the curated package of the same id (name, licence, version, published sha256), installed in
 * the app's resources instead of the data dir. The model manager lists it as installed and built in, a pull answers
 * "installed" at once, and it cannot be removed. A copy the person downloaded earlier (a row in the store) is used in
 * its place until they remove it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot, unpackedPath } from '../../platform/native-addons.js';
import { CURATED_LIST_VERSION, CURATED_PACKAGES, type ModelPackage } from './curated-models.js';
import type { InstalledModel } from '../installed-store.js';

/** A file in resources/models that is a curated package's single file. */
export interface BuiltInFile {
  /** The curated package it is. */
  id: string;
  /** Its file name in resources/models. */
  file: string;
}

export const BUILT_IN_FILES: readonly BuiltInFile[] = [{ id: 'silero-vad-v5', file: 'silero_vad_v5.onnx' }];

/**
 * Whether the shipped models count as installed: yes, unless `VOXDESK_BUILT_IN_MODELS=off` (tests that pin what a
 * recognizer does on a whole recording, without a VAD, in a `voxdesk` child process).
 */
export function builtInModelsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.VOXDESK_BUILT_IN_MODELS !== 'off';
}

/**
 * Where the shipped models are: `<app root>/resources/models` (in the packaged app unpacked from the asar, where the
 * inference engines can open them).
 */
export function builtInModelsDir(): string {
  return unpackedPath(join(appRoot(), 'resources', 'models'));
}

/** The shipped models present in `dir`, as installed packages (a file missing from a stripped build is left out). */
export function builtInModels(dir: string = builtInModelsDir(), packages: readonly ModelPackage[] = CURATED_PACKAGES): InstalledModel[] {
  const out: InstalledModel[] = [];
  for (const { id, file } of BUILT_IN_FILES) {
    const pkg = packages.find((p) => p.id === id);
    const published = pkg?.files[0];
    if (!pkg || !published || pkg.files.length !== 1 || !existsSync(join(dir, file))) continue;
    out.push({
      id,
      source: 'curated',
      name: pkg.name,
      description: pkg.description,
      family: pkg.family,
      capability: pkg.capability,
      languages: pkg.languages,
      licence: pkg.licence,
      version: pkg.version,
      dir,
      files: { model: file },
      sizeBytes: published.sizeBytes,
      sha256: published.sha256 ? { model: published.sha256 } : {},
      // The shipped file is the published one (test/unit/models/packages/built-in-models.test.ts checks its sha256).
      verified: published.sha256 !== null,
      curatedListVersion: CURATED_LIST_VERSION,
      installedAt: new Date(0).toISOString(),
    });
  }
  return out;
}
