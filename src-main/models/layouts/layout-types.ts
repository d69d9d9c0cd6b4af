/** The shapes layout detection works with (detect-layout.ts walks a folder; family-layouts.ts knows each family). */
import type { ModelFamily } from '../../common/model-families.js';
import type { OnnxMetadata } from '../../engines/onnx-metadata.js';

/** Role → path relative to the package folder: encoder, decoder, joiner, tokens, model, lexicon, dataDir, voices… */
export type FamilyFiles = Record<string, string>;

export interface DetectedLayout {
  family: ModelFamily;
  files: FamilyFiles;
  /**
   * Languages the model itself declares, when its metadata lists them (a Whisper export's `all_language_codes`).
   * Languages outside this list make sherpa-onnx exit the process, so they bound what a package may offer.
   */
  languages?: string[];
}

/** The files of the folder where the model is (looking into a single sub-folder, as archives have), for the layouts. */
export interface ModelFolder {
  /** Regular files, by name. */
  readonly names: string[];
  /** Sub-folders, by name. */
  readonly dirs: string[];
  /** The .onnx files among names. */
  readonly onnx: string[];
  /** tokens.txt, or another *tokens.txt, or null. */
  readonly tokens: string | null;
  has(name: string): boolean;
  hasDir(name: string): boolean;
  /** Among the .onnx files matching `re`, the int8 variant when there is one (smaller, what sherpa-onnx's docs use). */
  pick(re: RegExp): string | null;
  /** Among all files matching `re`, the first by name. */
  file(re: RegExp): string | null;
  metadata(name: string): Promise<OnnxMetadata | null>;
  head(name: string): Promise<string | null>;
  /** The layout when every required role has a file (names made relative to the package folder), else null. */
  make(family: ModelFamily, files: Record<string, string | null>, required: readonly string[]): DetectedLayout | null;
  /** Says why a folder that looks like a family's is refused; reported when nothing else fits. */
  refuse(reason: string): void;
}

/** One family's folder layout. */
export interface FamilyLayout {
  /** What a folder of the family holds, for messages ("needs …"). */
  needs: string;
  find(folder: ModelFolder): Promise<DetectedLayout | null>;
  /** The files a package of the family will have once installed (shown before a download: its params schema). */
  expected?: FamilyFiles;
}

