/**
 * Importing a model folder (or one .onnx file) from disk: the family is detected (or checked against the one
 * given), the files are copied into dataDir/models/<id>/ — a copy, so the model keeps working when the original
 * moves or is on removable media — and the package is registered as `imported`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ApiError } from '../../common/errors.js';
import type { ModelsRepo } from '../../store/models-repo.js';
import { detectLayout, familyCapability, isModelFamily, LayoutError, MODEL_FAMILIES, type ModelFamily, type PackageCapability } from './model-families.js';
import type { InstalledModel } from './model-manager.js';
import { MODEL_ID_PATTERN } from './url-packages.js';

export interface ImportOptions {
  /** Package id. Default: the folder's name, lower-cased, with unsafe characters replaced. */
  id?: string;
  /** Skip detection and check the folder against this family. */
  family?: string;
  /** Display name. Default: the id. */
  name?: string;
  /** Language codes. Default: those the model declares (Whisper), else [] (unknown). */
  languages?: string[];
}

export interface ImportContext {
  modelsDir: string;
  stagingDir: string;
  store: ModelsRepo<ModelFamily, PackageCapability>;
  /** Whether the id belongs to a downloadable (curated or added) package. */
  isOffered(id: string): boolean;
}

export async function importModelFolder(path: string, options: ImportOptions, ctx: ImportContext): Promise<InstalledModel> {
  if (typeof path !== 'string' || path.trim() === '') throw new ApiError('invalid_request', 'path is required: a model folder or .onnx file');
  const source = resolve(path);
  if (!existsSync(source)) throw new ApiError('invalid_request', `${source} does not exist`);
  const isFile = statSync(source).isFile();
  if (isFile && !source.endsWith('.onnx')) throw new ApiError('invalid_request', `${source} is a file but not an .onnx model; import its folder`);
  let family: ModelFamily | undefined;
  if (options.family !== undefined) {
    if (!isModelFamily(options.family)) throw new ApiError('invalid_request', `unknown family ${options.family}; one of ${MODEL_FAMILIES.join(', ')}`);
    family = options.family;
  }
  const id = options.id ?? defaultImportId(source);
  if (!MODEL_ID_PATTERN.test(id)) {
    throw new ApiError('invalid_request', `model id ${JSON.stringify(id)} must be 1-64 characters of a-z, 0-9, '.', '_', '-' (pass --id)`);
  }
  if (ctx.isOffered(id)) throw new ApiError('conflict', `${id} is the id of a downloadable model; pass another --id`);
  if (ctx.store.installedById(id)) throw new ApiError('conflict', `a model ${id} is already installed; remove it first or pass another --id`);
  const models = resolve(ctx.modelsDir);
  if (source === models || source.startsWith(models + '/') || source.startsWith(models + '\\')) {
    throw new ApiError('invalid_request', `${source} is already inside the models folder`);
  }

  const staging = join(ctx.stagingDir, `import-${id}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(ctx.stagingDir, { recursive: true });
  try {
    if (isFile) {
      mkdirSync(staging, { recursive: true });
      cpSync(source, join(staging, basename(source)));
    } else {
      cpSync(source, staging, { recursive: true, dereference: true });
    }
    let layout;
    try {
      layout = detectLayout(staging, family);
    } catch (err) {
      if (err instanceof LayoutError) throw new ApiError('invalid_request', err.message.replaceAll(staging, source), { cause: err });
      throw err;
    }
    const dir = join(ctx.modelsDir, id);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    const model: InstalledModel = {
      id,
      source: 'imported',
      name: options.name ?? id,
      description: `Imported from ${source}`,
      family: layout.family,
      capability: familyCapability(layout.family),
      languages: importLanguages(options.languages, layout.languages),
      licence: 'unknown (imported)',
      version: 'imported',
      dir,
      files: layout.files,
      sizeBytes: diskUsage(dir),
      sha256: {},
      verified: false,
      curatedListVersion: null,
      installedAt: new Date().toISOString(),
    };
    ctx.store.putInstalled(model);
    return model;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Languages given to an import, checked against those the model declares (when it declares any). */
function importLanguages(given: string[] | undefined, declared: string[] | undefined): string[] {
  if (!given) return declared ?? [];
  const unknown = declared ? given.filter((l) => !declared.includes(l)) : [];
  if (unknown.length > 0) {
    throw new ApiError('invalid_request', `the model does not know ${unknown.join(', ')}; it declares ${declared!.join(', ')}`);
  }
  return given;
}

function defaultImportId(source: string): string {
  return basename(source)
    .replace(/\.onnx$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
}

/** Bytes on disk under a path. */
export function diskUsage(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const name of readdirSync(path)) total += diskUsage(join(path, name));
  return total;
}
