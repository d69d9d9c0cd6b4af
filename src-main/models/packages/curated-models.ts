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
import type { SpecFamily } from '../../common/spec-families.js';
import type { PackageCapability } from '../family-engines.js';
import { ASR_PACKAGES } from './curated/asr-packages.js';
import { OTHER_PACKAGES } from './curated/other-packages.js';
import { VOICE_PACKAGES } from './curated/voice-packages.js';

export const CURATED_LIST_VERSION = 3;

export interface PackageFile {
  url: string;
  /**
   * Lower-case hex sha256 of the downloaded bytes. Curated packages: always pinned, or null with `unconfirmed` saying
   * why (such a package is refused, never installed unverified). A package added by URL always has one.
   */
  sha256: string | null;
  /** Curated packages: where the sha256 and size come from (a release's checksum file, the host's LFS hash …). */
  pinSource?: string;
  /** Curated packages whose pin no published source confirms: why (pull then fails with unconfirmed_pin). */
  unconfirmed?: string;
  sizeBytes: number;
  /**
   * Where the file lands inside the package folder. For an archive (`extract`), the folder its contents are
   * extracted into ('' = the package folder itself); the archive's single top-level folder is stripped.
   */
  path: string;
  extract?: 'tar.bz2' | 'tar.gz';
}

export interface ModelPackage {
  id: string;
  name: string;
  description: string;
  capability: PackageCapability;
  family: ModelFamily;
  /** BCP-47-ish language codes (lower-case); [] for language-independent models. */
  languages: string[];
  licence: string;
  version: string;
  files: PackageFile[];
  /** Voices: speakers in the model (the `speaker` param's range). Default 1. */
  numSpeakers?: number;
  /** Voices: output sample rate when known. */
  sampleRate?: number;
  /** The spec's family label the package serves (its params table applies; common/spec-families.ts). */
  specFamily?: SpecFamily;
  /** How fast it runs on a laptop CPU (SPEED_CLASSES). */
  speedClass?: SpeedClass;
}

/**
 * How long a package takes for a minute of audio (or of speech, for voices) on a 4-core laptop CPU, as a class: fast
 * (a few seconds: live use), medium (well under a minute), slow (about as long as the audio or longer). From the
 * model's size and architecture and the figures its makers and sherpa-onnx publish, not measured on every machine.
 */
export const SPEED_CLASSES = ['fast', 'medium', 'slow'] as const;
export type SpeedClass = (typeof SPEED_CLASSES)[number];

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
