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
import { ASR_PACKAGES } from './curated/asr-packages.js';
import { COQUI_VOICES } from './curated/coqui-voices.js';
import { OTHER_PACKAGES } from './curated/other-packages.js';
import { MIMIC3_KOREAN, PIPER_VOICES } from './curated/piper-voices.js';
import { SEPARATION_PACKAGES } from './curated/separation-packages.js';
import { CLONING_PACKAGES } from './curated/cloning-packages.js';
import { VOICE_PACKAGES } from './curated/voice-packages.js';
import type { ModelPackage } from './model-package.js';

export { packageSize, SPEED_CLASSES, type ModelPackage, type OfferedPackage, type PackageFile, type SpeedClass } from './model-package.js';

export const CURATED_LIST_VERSION = 6;

export const CURATED_PACKAGES: readonly ModelPackage[] = [...ASR_PACKAGES, ...VOICE_PACKAGES, ...PIPER_VOICES, MIMIC3_KOREAN, ...COQUI_VOICES, ...OTHER_PACKAGES, ...SEPARATION_PACKAGES, ...CLONING_PACKAGES];
