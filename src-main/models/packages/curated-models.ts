/**
 * The curated list of downloadable model packages. Every sha256 and size below is a published value, not one made
 * up: the sherpa-onnx release archives' digests as pinned by several public projects that verify them, and for the
 * four single files that also ship in ../shared/models (Silero VAD v5, GTCRN, pyannote segmentation) hashes computed
 * here from those very files. Each file says where its pin comes from (`pinSource`, a test keeps it there). A file
 * whose digest no published source confirms carries `sha256: null` and `unconfirmed` with the reason: the manager
 * refuses to download it (it is never installed unverified without the person knowing); the person can add it by URL
 * with a sha256 they trust.
 *
 * Bump CURATED_LIST_VERSION whenever a package is added, removed or re-pinned.
 */
import type { ModelFamily } from '../../common/model-families.js';
import type { PackageCapability } from '../family-engines.js';
import { ASR_PACKAGES } from './curated/asr-packages.js';
import { OTHER_PACKAGES } from './curated/other-packages.js';
import { VOICE_PACKAGES } from './curated/voice-packages.js';
import type { ModelPackage } from './package-types.js';

export const CURATED_LIST_VERSION = 3;

export type { ModelPackage, PackageFile, SpeedClass } from './package-types.js';
export { SPEED_CLASSES } from './package-types.js';

export const CURATED_PACKAGES: readonly ModelPackage[] = [...ASR_PACKAGES, ...VOICE_PACKAGES, ...OTHER_PACKAGES];

/**
 * A package the manager can download: a curated one, or one someone added by URL (whose family, hence capability,
 * may be known only once its files are there).
 */
export interface OfferedPackage extends Omit<ModelPackage, 'family' | 'capability'> {
  source: 'curated' | 'url';
  family: ModelFamily | null;
  capability: PackageCapability | null;
}

export function packageSize(pkg: Pick<ModelPackage, 'files'>): number {
  return pkg.files.reduce((sum, f) => sum + f.sizeBytes, 0);
}
