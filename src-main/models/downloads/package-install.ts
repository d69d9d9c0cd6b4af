/**
 * The last step of a download: the verified files in a package's staging folder become an installed package —
 * archives extracted (archive.ts refuses any that reach outside), single files copied, the layout detected (or the
 * given family's checked), and the folder moved into dataDir/models/<id>/. Every file-system step is asynchronous:
 * a 600 MB model must not stall the service.
 */
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { familyCapability } from '../family-engines.js';
import type { InstalledModel } from '../installed-store.js';
import { detectLayout, type DetectedLayout } from '../layouts/detect-layout.js';
import { CURATED_LIST_VERSION, type OfferedPackage } from '../packages/curated-models.js';
import { extractArchive } from './archive.js';
import { PackageError } from '../../common/errors.js';

export interface StagedPackage {
  pkg: OfferedPackage;
  /** dataDir/models/.staging/<id>: the downloaded files are `file-<i>.done`. */
  staging: string;
  /** The file name → sha256 of every downloaded file. */
  hashes: Record<string, string>;
  /** Whether every file matched a published sha256. */
  verified: boolean;
}

/** Installs a staged package into `modelsDir/<id>` and answers its row (not yet stored). */
export async function installStaged(staged: StagedPackage, modelsDir: string, signal: AbortSignal): Promise<InstalledModel> {
  const { pkg, staging } = staged;
  const pkgDir = join(staging, 'package');
  await rm(pkgDir, { recursive: true, force: true });
  await mkdir(pkgDir, { recursive: true });
  for (const [i, file] of pkg.files.entries()) {
    const donePath = join(staging, `file-${i}.done`);
    const target = resolve(pkgDir, file.path);
    if (target !== pkgDir && !target.startsWith(pkgDir + sep)) {
      throw new PackageError('download_failed', `${pkg.id}: the file name ${JSON.stringify(file.path)} reaches outside the package folder; nothing was installed`);
    }
    if (file.extract) {
      const out = join(staging, `extract-${i}`);
      await rm(out, { recursive: true, force: true });
      try {
        await extractArchive(donePath, out, file.extract, { signal });
      } catch (err) {
        // The archive is the problem, not the connection: a new attempt downloads it again.
        if (err instanceof PackageError) await rm(donePath, { force: true });
        throw err;
      }
      await mkdir(target, { recursive: true });
      for (const name of await readdir(out)) await rename(join(out, name), join(target, name));
      await rm(out, { recursive: true, force: true });
    } else {
      await mkdir(join(target, '..'), { recursive: true });
      await copyFile(donePath, target);
    }
  }
  const layout = await downloadedLayout(pkgDir, pkg);
  if (signal.aborted) throw new PackageError('cancelled', 'the download was cancelled');
  const dir = join(modelsDir, pkg.id);
  await rm(dir, { recursive: true, force: true });
  await rename(pkgDir, dir);
  return {
    id: pkg.id,
    source: pkg.source,
    name: pkg.name,
    description: pkg.description,
    family: layout.family,
    capability: pkg.capability ?? familyCapability(layout.family),
    languages: boundLanguages(pkg.languages, layout.languages),
    licence: pkg.licence,
    version: pkg.version,
    dir,
    files: layout.files,
    sizeBytes: await diskUsage(dir),
    sha256: staged.hashes,
    verified: staged.verified,
    curatedListVersion: pkg.source === 'curated' ? CURATED_LIST_VERSION : null,
    installedAt: new Date().toISOString(),
  };
}

/** The layout of a downloaded package; a mismatch names the download's own files, never the staging path. */
async function downloadedLayout(pkgDir: string, pkg: OfferedPackage): Promise<DetectedLayout> {
  try {
    return await detectLayout(pkgDir, pkg.family ?? undefined);
  } catch (err) {
    const refusal = err instanceof PackageError ? err.layout : null;
    if (!refusal) throw err;
    // The family is given with the package (POST /v1/local/models family, voxdesk models add --family).
    const message = (err as Error).message
      .replaceAll(pkgDir, 'the download')
      .replace('the folder holds', 'the download holds')
      .replace('pass --family', 'give its family')
      .replace(' to be told what that family needs', '');
    throw new PackageError('install_failed', message, { layout: refusal });
  }
}

/**
 * A package's languages within those its model declares (Whisper): a language the model lacks would make
 * sherpa-onnx exit the process when asked for. Without a declaration the package's list stands.
 */
export function boundLanguages(listed: string[], declared: string[] | undefined): string[] {
  if (!declared) return listed;
  if (listed.length === 0) return declared;
  const inside = listed.filter((l) => declared.includes(l));
  return inside.length > 0 ? inside : declared;
}

async function diskUsage(path: string): Promise<number> {
  const st = await stat(path);
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const name of await readdir(path)) total += await diskUsage(join(path, name));
  return total;
}
