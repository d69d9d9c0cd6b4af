/**
 * Model families and their sherpa-onnx folder layouts: which files a family needs, and how to recognise a family
 * from a folder's files. Used for downloaded packages (after extraction) and imported folders alike, so both end
 * with the same `files` map (role → path relative to the package folder).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ASR_FAMILIES = ['whisper', 'nemo-ctc', 'nemo-transducer', 'moonshine', 'sense-voice'] as const;
export const TTS_FAMILIES = ['vits', 'piper', 'kokoro'] as const;
export const SUPPORT_KINDS = ['silero-vad', 'speaker-embedding', 'pyannote-segmentation'] as const;
export const DENOISE_FAMILIES = ['gtcrn'] as const;

export type AsrFamily = (typeof ASR_FAMILIES)[number];
export type TtsFamily = (typeof TTS_FAMILIES)[number];
export type SupportKind = (typeof SUPPORT_KINDS)[number];
export type ModelFamily = AsrFamily | TtsFamily | SupportKind | (typeof DENOISE_FAMILIES)[number];

/** What a package is for: catalogue capabilities, or 'support' for models the ASR engines use (VAD, diarization). */
export type PackageCapability = 'asr' | 'tts' | 'noise_reduction' | 'support';

export const MODEL_FAMILIES: readonly ModelFamily[] = [...ASR_FAMILIES, ...TTS_FAMILIES, ...DENOISE_FAMILIES, ...SUPPORT_KINDS];

export function isModelFamily(value: string): value is ModelFamily {
  return (MODEL_FAMILIES as readonly string[]).includes(value);
}

export function familyCapability(family: ModelFamily): PackageCapability {
  if ((ASR_FAMILIES as readonly string[]).includes(family)) return 'asr';
  if ((TTS_FAMILIES as readonly string[]).includes(family)) return 'tts';
  if (family === 'gtcrn') return 'noise_reduction';
  return 'support';
}

/** Role → path relative to the package folder: encoder, decoder, joiner, tokens, model, lexicon, dataDir, voices… */
export type FamilyFiles = Record<string, string>;

export interface DetectedLayout {
  family: ModelFamily;
  files: FamilyFiles;
}

/**
 * Why a folder is not a model of a family: `not_a_folder`, `family_mismatch` (the family given does not fit; the
 * message says what that family needs) or `unknown_family` (no layout fits). The message never lists the folder's
 * files: an import names what is missing, not what a folder of this machine holds. `found` summarises the files for
 * callers that may show them (a downloaded package's own files).
 */
export class LayoutError extends Error {
  constructor(
    message: string,
    readonly kind: 'not_a_folder' | 'family_mismatch' | 'unknown_family' = 'unknown_family',
    readonly family: ModelFamily | null = null,
    readonly found: string | null = null,
  ) {
    super(message);
    this.name = 'LayoutError';
  }
}

/**
 * What layout detection needs to know of a folder: its regular files and sub-folders, and the start of a text file.
 * diskListing() reads a folder; an import builds one from its copy plan (engines/models/import-plan.ts), so the
 * layout is known before anything is copied and links are seen as the files they will become.
 */
export interface FolderListing {
  /** Regular files and sub-folders directly in `rel` ('' = the top), by name. */
  entries(rel: string): { files: string[]; dirs: string[] };
  /** The first HEAD_CHARS characters of a file as UTF-8, or null when it cannot be read. */
  head(rel: string): string | null;
}

/** How much of a tokens file detection reads. */
export const HEAD_CHARS = 20_000;

/** A folder on disk as a FolderListing (directory entries that are links are neither files nor folders). */
export function diskListing(dir: string): FolderListing {
  return {
    entries(rel) {
      const entries = readdirSync(join(dir, rel), { withFileTypes: true });
      return { files: entries.filter((e) => e.isFile()).map((e) => e.name), dirs: entries.filter((e) => e.isDirectory()).map((e) => e.name) };
    },
    head(rel) {
      try {
        return readFileSync(join(dir, rel), 'utf8').slice(0, HEAD_CHARS);
      } catch {
        return null;
      }
    },
  };
}

/** Files of a folder (relative paths), looking one level into a single sub-folder as archives often have. */
function listFiles(listing: FolderListing, rel = ''): { base: string; names: string[]; dirs: string[] } {
  const { files: names, dirs } = listing.entries(rel);
  if (names.length === 0 && dirs.length === 1) {
    const inner = listFiles(listing, rel ? join(rel, dirs[0]!) : dirs[0]!);
    return { base: inner.base, names: inner.names, dirs: inner.dirs };
  }
  return { base: rel, names, dirs };
}

/** Among names matching `re`, the int8 variant when there is one (smaller, what sherpa-onnx's docs use). */
function pick(names: string[], re: RegExp): string | null {
  const found = names.filter((n) => re.test(n)).sort();
  if (found.length === 0) return null;
  return found.find((n) => /\.int8\.onnx$/.test(n)) ?? found[0]!;
}

function tokensFile(names: string[]): string | null {
  return names.includes('tokens.txt') ? 'tokens.txt' : pick(names, /tokens\.txt$/);
}

/** Guesses the family from a folder's files, or checks the files of the family given (a package's own folder). */
export function detectLayout(dir: string, familyHint?: ModelFamily): DetectedLayout {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new LayoutError(`${dir} is not a folder`, 'not_a_folder');
  try {
    return detectLayoutIn(diskListing(dir), familyHint);
  } catch (error) {
    if (error instanceof LayoutError && error.found) {
      throw new LayoutError(`${error.message} (found: ${error.found})`, error.kind, error.family, error.found);
    }
    throw error;
  }
}

/** detectLayout over any FolderListing; its errors name what is missing, never the folder's files. */
export function detectLayoutIn(listing: FolderListing, familyHint?: ModelFamily): DetectedLayout {
  const { base, names, dirs } = listFiles(listing);
  const rel = (name: string) => (base ? join(base, name) : name);
  const onnx = names.filter((n) => n.endsWith('.onnx'));
  const tokens = tokensFile(names);
  const has = (name: string) => names.includes(name);
  const hasDir = (name: string) => dirs.includes(name);

  const layouts: Array<() => DetectedLayout | null> = [];
  const make = (family: ModelFamily, files: Record<string, string | null>, required: string[]): DetectedLayout | null => {
    if (required.some((role) => !files[role])) return null;
    const out: FamilyFiles = {};
    for (const [role, name] of Object.entries(files)) if (name) out[role] = rel(name);
    return { family, files: out };
  };
  const candidates: Record<ModelFamily, () => DetectedLayout | null> = {
    kokoro: () => make('kokoro', { model: pick(onnx, /\.onnx$/), voices: has('voices.bin') ? 'voices.bin' : null, tokens, dataDir: hasDir('espeak-ng-data') ? 'espeak-ng-data' : null, lexicon: has('lexicon-us-en.txt') ? 'lexicon-us-en.txt' : null }, ['model', 'voices', 'tokens', 'dataDir']),
    piper: () => make('piper', { model: pick(onnx, /\.onnx$/), tokens, dataDir: hasDir('espeak-ng-data') ? 'espeak-ng-data' : null }, ['model', 'tokens', 'dataDir']),
    vits: () => make('vits', { model: pick(onnx, /\.onnx$/), tokens, lexicon: has('lexicon.txt') ? 'lexicon.txt' : null, dataDir: hasDir('espeak-ng-data') ? 'espeak-ng-data' : null }, ['model', 'tokens', 'lexicon']),
    moonshine: () => make('moonshine', { preprocessor: pick(onnx, /^preprocess/), encoder: pick(onnx, /^encode/), uncachedDecoder: pick(onnx, /^uncached_decode/), cachedDecoder: pick(onnx, /^cached_decode/), tokens }, ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens']),
    'nemo-transducer': () => make('nemo-transducer', { encoder: pick(onnx, /encoder/), decoder: pick(onnx, /decoder/), joiner: pick(onnx, /joiner/), tokens }, ['encoder', 'decoder', 'joiner', 'tokens']),
    whisper: () => (pick(onnx, /joiner/) ? null : make('whisper', { encoder: pick(onnx, /encoder/), decoder: pick(onnx, /decoder/), tokens }, ['encoder', 'decoder', 'tokens'])),
    'sense-voice': () => (tokens && isSenseVoiceTokens(listing.head(rel(tokens))) ? make('sense-voice', { model: pick(onnx, /^model/), tokens }, ['model', 'tokens']) : null),
    'nemo-ctc': () => make('nemo-ctc', { model: pick(onnx, /^model/), tokens }, ['model', 'tokens']),
    gtcrn: () => make('gtcrn', { model: pick(onnx, /gtcrn/i) ?? (onnx.length === 1 && !tokens ? onnx[0]! : null) }, ['model']),
    'silero-vad': () => make('silero-vad', { model: pick(onnx, /silero|vad/i) ?? (onnx.length === 1 && !tokens ? onnx[0]! : null) }, ['model']),
    'pyannote-segmentation': () => make('pyannote-segmentation', { model: pick(onnx, /pyannote|segmentation/i) ?? (onnx.length === 1 && !tokens ? onnx[0]! : null) }, ['model']),
    'speaker-embedding': () => make('speaker-embedding', { model: pick(onnx, /titanet|wespeaker|3dspeaker|campplus|eres2net|speaker|embedding/i) ?? (onnx.length === 1 && !tokens ? onnx[0]! : null) }, ['model']),
  };

  if (familyHint) {
    const layout = candidates[familyHint]();
    if (!layout) throw new LayoutError(`the folder does not hold a ${familyHint} model: ${REQUIRED_HINT[familyHint]}`, 'family_mismatch', familyHint);
    return layout;
  }
  // Most specific first: a TTS folder also has model.onnx + tokens.txt, a transducer also has encoder + decoder.
  const order: ModelFamily[] = ['kokoro', 'piper', 'vits', 'moonshine', 'nemo-transducer', 'whisper', 'sense-voice', 'nemo-ctc'];
  for (const family of order) layouts.push(candidates[family]);
  if (!tokens && onnx.length >= 1) {
    const byName: Array<[RegExp, ModelFamily]> = [
      [/gtcrn/i, 'gtcrn'],
      [/silero|vad/i, 'silero-vad'],
      [/pyannote|segmentation/i, 'pyannote-segmentation'],
      [/titanet|wespeaker|3dspeaker|campplus|eres2net|speaker|embedding/i, 'speaker-embedding'],
    ];
    for (const [re, family] of byName) if (onnx.some((n) => re.test(n))) layouts.push(candidates[family]);
  }
  for (const attempt of layouts) {
    const layout = attempt();
    if (layout) return layout;
  }
  const found = [...names.slice(0, 12), ...dirs.map((d) => `${d}/`)].join(', ') || 'nothing';
  const missing = onnx.length === 0 ? 'no .onnx model file' : !tokens ? `${onnx.length} .onnx file(s) but no tokens.txt` : 'no known arrangement of .onnx files and tokens.txt';
  throw new LayoutError(
    `cannot tell which model family the folder holds (it has ${missing}); a sherpa-onnx model folder has .onnx files plus tokens.txt (speech recognition, voices) or one .onnx file (denoiser, VAD, speaker models); pass --family (one of ${MODEL_FAMILIES.join(', ')}) to be told what that family needs`,
    'unknown_family',
    null,
    found,
  );
}

const REQUIRED_HINT: Record<ModelFamily, string> = {
  whisper: 'needs *encoder*.onnx, *decoder*.onnx and tokens.txt',
  'nemo-ctc': 'needs model*.onnx and tokens.txt',
  'nemo-transducer': 'needs *encoder*.onnx, *decoder*.onnx, *joiner*.onnx and tokens.txt',
  moonshine: 'needs preprocess*.onnx, encode*.onnx, uncached_decode*.onnx, cached_decode*.onnx and tokens.txt',
  'sense-voice': 'needs model*.onnx and a SenseVoice tokens.txt (with <|zh|>, <|en|> … tokens)',
  vits: 'needs *.onnx, tokens.txt and lexicon.txt',
  piper: 'needs *.onnx, tokens.txt and an espeak-ng-data folder',
  kokoro: 'needs *.onnx, voices.bin, tokens.txt and an espeak-ng-data folder',
  gtcrn: 'needs one .onnx file',
  'silero-vad': 'needs one .onnx file',
  'pyannote-segmentation': 'needs one .onnx file',
  'speaker-embedding': 'needs one .onnx file',
};

function isSenseVoiceTokens(head: string | null): boolean {
  return head !== null && head.includes('<|zh|>') && head.includes('<|withitn|>');
}
