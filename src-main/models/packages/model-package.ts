/**
 * What a downloadable model package is: its files with their pins, its family, languages and licence — the shape of
 * the curated lists (curated/*.ts), of packages added by URL, and of what the manager offers.
 */
import type { ModelFamily } from '../../common/model-families.js';
import type { SpecFamily } from '../../common/spec-families.js';
import type { PackageCapability } from '../family-engines.js';

export interface PackageFile {
  url: string;
  /**
   * Lower-case hex sha256 of the downloaded bytes. Curated packages: always pinned, or null with `unconfirmed` saying
   * why (such a package is refused, never installed unverified). A package added by URL always has one.
   */
  sha256: string | null;
  /** Curated packages: where the sha256 and size come from (a release's checksum file, the host's LFS hash …). */
  pinSource?: string;
  /** Curated packages whose pin no published source confirms: why (a pull is then refused unless the person accepts installing it unverified). */
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
  /** Voices: the speakers' names in id order (Kokoro's `af_heart`, …), listed per language before download. */
  speakerNames?: string[];
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
