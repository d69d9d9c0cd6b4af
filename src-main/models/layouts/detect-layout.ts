/**
 * Which model family a folder holds, and which of its files play which role: used for downloaded packages (after
 * extraction) and imported folders alike, so both end with the same `files` map (role → path relative to the package
 * folder). The families' own layouts are in family-layouts.ts; this file walks into the folder, tries them in order
 * (or checks the one given) and says what is missing when none fits.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MODEL_FAMILIES, type ModelFamily } from '../../common/model-families.js';
import { FAMILY_LAYOUTS, LAYOUT_ORDER, singleFileCandidates } from './family-layouts.js';
import { diskListing, type FolderListing } from './folder-listing.js';
import type { DetectedLayout, FamilyFiles, ModelFolder } from './layout-types.js';
import { PackageError, type LayoutRefusal } from '../../common/errors.js';

export type { DetectedLayout, FamilyFiles } from './layout-types.js';

/**
 * A folder that is not a model of a family: install_failed with the refusal (common/errors.ts LayoutRefusal). The
 * message never lists the folder's files: an import names what is missing, not what a folder of this machine holds.
 */
export function layoutRefused(message: string, kind: LayoutRefusal['kind'], family: ModelFamily | null = null, found: string | null = null): PackageError {
  return new PackageError('install_failed', message, { layout: { kind, family, found } });
}

/** Guesses the family from a folder's files, or checks the files of the family given (a package's own folder). */
export async function detectLayout(dir: string, familyHint?: ModelFamily): Promise<DetectedLayout> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw layoutRefused(`${dir} is not a folder`, 'not_a_folder');
  try {
    return await detectLayoutIn(diskListing(dir), familyHint);
  } catch (error) {
    const refusal = error instanceof PackageError ? error.layout : null;
    if (refusal?.found) throw new PackageError('install_failed', `${(error as Error).message} (found: ${refusal.found})`, { layout: refusal });
    throw error;
  }
}

/** detectLayout over any FolderListing; its errors name what is missing, never the folder's files. */
export async function detectLayoutIn(listing: FolderListing, familyHint?: ModelFamily): Promise<DetectedLayout> {
  const { folder, refusal } = await modelFolder(listing);
  if (familyHint) {
    const layout = await FAMILY_LAYOUTS[familyHint].find(folder);
    if (!layout) throw layoutRefused(refusal() ?? `the folder does not hold a ${familyHint} model: ${FAMILY_LAYOUTS[familyHint].needs}`, 'family_mismatch', familyHint);
    return layout;
  }
  const families = [...LAYOUT_ORDER, ...(await singleFileCandidates(folder))];
  for (const family of families) {
    const layout = await FAMILY_LAYOUTS[family].find(folder);
    if (layout) return layout;
  }
  const refused = refusal();
  if (refused) throw layoutRefused(refused, 'unknown_family');
  const { names, dirs, onnx, tokens } = folder;
  const found = [...names.slice(0, 12), ...dirs.map((d) => `${d}/`)].join(', ') || 'nothing';
  const missing = onnx.length === 0 ? 'no .onnx model file' : !tokens ? `${onnx.length} .onnx file(s) but no tokens.txt` : 'no known arrangement of .onnx files and tokens.txt';
  throw layoutRefused(
    `cannot tell which model family the folder holds (it has ${missing}); a sherpa-onnx model folder has .onnx files plus tokens.txt (speech recognition, voices) or one .onnx file (denoiser, VAD, speaker models); pass --family (one of ${MODEL_FAMILIES.join(', ')}) to be told what that family needs`,
    'unknown_family',
    null,
    found,
  );
}

/** Where the model's files are: the folder, or its single sub-folder when it holds nothing else (archives). */
async function modelBase(listing: FolderListing, rel = ''): Promise<{ base: string; names: string[]; dirs: string[] }> {
  const { files: names, dirs } = await listing.entries(rel);
  if (names.length === 0 && dirs.length === 1) return modelBase(listing, rel ? join(rel, dirs[0]!) : dirs[0]!);
  return { base: rel, names, dirs };
}

function pickFrom(names: string[], re: RegExp): string | null {
  const found = names.filter((n) => re.test(n)).sort();
  if (found.length === 0) return null;
  return found.find((n) => /\.int8\.onnx$/.test(n)) ?? found[0]!;
}

async function modelFolder(listing: FolderListing): Promise<{ folder: ModelFolder; refusal: () => string | null }> {
  const { base, names, dirs } = await modelBase(listing);
  const rel = (name: string) => (base ? join(base, name) : name);
  const onnx = names.filter((n) => n.endsWith('.onnx'));
  let refused: string | null = null;
  const folder: ModelFolder = {
    names,
    dirs,
    onnx,
    tokens: names.includes('tokens.txt') ? 'tokens.txt' : pickFrom(names, /tokens\.txt$/),
    has: (name) => names.includes(name),
    hasDir: (name) => dirs.includes(name),
    pick: (re) => pickFrom(onnx, re),
    file: (re) => names.filter((n) => re.test(n)).sort()[0] ?? null,
    metadata: (name) => listing.metadata(rel(name)),
    head: (name) => listing.head(rel(name)),
    make(family, files, required) {
      if (required.some((role) => !files[role])) return null;
      const out: FamilyFiles = {};
      for (const [role, name] of Object.entries(files)) if (name) out[role] = rel(name);
      return { family, files: out };
    },
    refuse(reason) {
      refused ??= reason;
    },
  };
  return { folder, refusal: () => refused };
}
