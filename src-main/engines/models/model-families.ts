/**
 * Model families and their sherpa-onnx folder layouts: which files a family needs, and how to recognise a family
 * from a folder's files. Used for downloaded packages (after extraction) and imported folders alike, so both end
 * with the same `files` map (role → path relative to the package folder).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ASR_FAMILIES, MODEL_FAMILIES, TTS_FAMILIES, type ModelFamily } from '../../common/model-families.js';
import { readOnnxMetadata, type OnnxMetadata } from './onnx-metadata.js';

export {
  ASR_FAMILIES,
  DENOISE_FAMILIES,
  isModelFamily,
  MODEL_FAMILIES,
  SUPPORT_KINDS,
  TTS_FAMILIES,
  type AsrFamily,
  type ModelFamily,
  type SupportKind,
  type TtsFamily,
} from '../../common/model-families.js';

/** What a package is for: catalogue capabilities, or 'support' for models the ASR engines use (VAD, diarization). */
export type PackageCapability = 'asr' | 'tts' | 'noise_reduction' | 'support';

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
  /**
   * Languages the model itself declares, when its metadata lists them (a Whisper export's `all_language_codes`).
   * Languages outside this list make sherpa-onnx exit the process, so they bound what a package may offer.
   */
  languages?: string[];
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
  /** An .onnx file's metadata (onnx-metadata.ts), or null when it cannot be read as ONNX. */
  metadata(rel: string): OnnxMetadata | null;
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
    metadata: (rel) => onnxMetadataOrNull(join(dir, rel)),
  };
}

/** readOnnxMetadata, or null when the file cannot be read as ONNX (detection then goes by file names). */
export function onnxMetadataOrNull(path: string): OnnxMetadata | null {
  try {
    return readOnnxMetadata(path);
  } catch {
    return null;
  }
}

/**
 * Whether a transducer's encoder is a streaming (online) one: sherpa-onnx's streaming exports (Zipformer, Zipformer2,
 * LSTM, Conv-Emformer) carry `decode_chunk_len` or `T` in the encoder's metadata; offline ones (NeMo, offline
 * Zipformer) do not. Without readable metadata the release file names decide (`…-chunk-16-left-128.onnx`).
 */
function isStreamingEncoder(meta: OnnxMetadata | null, name: string): boolean {
  if (meta && Object.keys(meta).length > 0) return 'decode_chunk_len' in meta || ('T' in meta && /zipformer|lstm|emformer/i.test(meta.model_type ?? ''));
  return /chunk|streaming/i.test(name);
}

/** Languages a Whisper export declares (`all_language_codes`; `en` for English-only models), or undefined. */
function whisperLanguages(meta: OnnxMetadata | null): string[] | undefined {
  if (!meta) return undefined;
  if (meta.is_multilingual === '0') return ['en'];
  const codes = (meta.all_language_codes ?? '').split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
  return codes.length > 0 ? codes : undefined;
}

/**
 * A VITS voice without a lexicon runs only when sherpa-onnx phonemizes for it with espeak-ng, which it does for
 * Piper, Coqui and icefall exports (their metadata says so) or character models. Anything else makes sherpa-onnx
 * exit the process at load ("Please provide --vits-lexicon"), so it is refused here with the reason.
 */
function espeakVitsRefusal(meta: OnnxMetadata | null, shown: string): string | null {
  if (!meta) return null; // unreadable: sherpa-onnx refuses to load it with an error of its own
  const comment = meta.comment ?? '';
  if (/piper|coqui|icefall/i.test(comment) || meta.frontend === 'characters') return null;
  return (
    `${shown} has espeak-ng-data but no lexicon.txt, and its metadata does not mark it as a Piper, Coqui or icefall ` +
    `export (comment: ${JSON.stringify(comment)}): sherpa-onnx cannot phonemize for it. Add its lexicon.txt or use a Piper export`
  );
}

/** Single-file models recognised by their metadata before their names (a download may be called model.onnx). */
function singleFileFamily(meta: OnnxMetadata | null): ModelFamily | null {
  if (!meta) return null;
  const type = meta.model_type ?? '';
  if (type === 'gtcrn') return 'gtcrn';
  if (/^pyannote/i.test(type)) return 'pyannote-segmentation';
  if (meta.framework || meta.output_dim) return 'speaker-embedding';
  return null;
}

const SPEAKER_EMBEDDING_NAMES = /titanet|wespeaker|3dspeaker|3d-speaker|campplus|eres2net|speaker|embedding/i;

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
  const transducer = (family: 'nemo-transducer' | 'streaming-transducer'): DetectedLayout | null => {
    const encoder = pick(onnx, /encoder/);
    if (!encoder || isStreamingEncoder(listing.metadata(rel(encoder)), encoder) !== (family === 'streaming-transducer')) return null;
    return make(family, { encoder, decoder: pick(onnx, /decoder/), joiner: pick(onnx, /joiner/), tokens }, ['encoder', 'decoder', 'joiner', 'tokens']);
  };
  const whisper = (): DetectedLayout | null => {
    if (pick(onnx, /joiner/)) return null;
    const layout = make('whisper', { encoder: pick(onnx, /encoder/), decoder: pick(onnx, /decoder/), tokens }, ['encoder', 'decoder', 'tokens']);
    const languages = layout ? whisperLanguages(listing.metadata(layout.files.encoder!)) : undefined;
    return layout && languages ? { ...layout, languages } : layout;
  };
  // Why a Piper-looking folder was not taken, reported when nothing else fits either.
  let refusal: string | null = null;
  const piper = (): DetectedLayout | null => {
    const layout = make('piper', { model: pick(onnx, /\.onnx$/), tokens, dataDir: hasDir('espeak-ng-data') ? 'espeak-ng-data' : null }, ['model', 'tokens', 'dataDir']);
    const refused = layout ? espeakVitsRefusal(listing.metadata(layout.files.model!), pick(onnx, /\.onnx$/)!) : null;
    if (!refused) return layout;
    if (!has('lexicon.txt')) refusal = refused;
    return null;
  };
  const single = (family: ModelFamily, re: RegExp): DetectedLayout | null => {
    const only = onnx.length === 1 && !tokens ? onnx[0]! : null;
    const declared = only ? singleFileFamily(listing.metadata(rel(only))) : null;
    if (declared && declared !== family) return null; // its metadata names another family
    return make(family, { model: pick(onnx, re) ?? only }, ['model']);
  };
  const candidates: Record<ModelFamily, () => DetectedLayout | null> = {
    kokoro: () => make('kokoro', { model: pick(onnx, /\.onnx$/), voices: has('voices.bin') ? 'voices.bin' : null, tokens, dataDir: hasDir('espeak-ng-data') ? 'espeak-ng-data' : null, lexicon: has('lexicon-us-en.txt') ? 'lexicon-us-en.txt' : null }, ['model', 'voices', 'tokens', 'dataDir']),
    piper,
    vits: () => make('vits', { model: pick(onnx, /\.onnx$/), tokens, lexicon: has('lexicon.txt') ? 'lexicon.txt' : null, dataDir: hasDir('espeak-ng-data') ? 'espeak-ng-data' : null }, ['model', 'tokens', 'lexicon']),
    moonshine: () => make('moonshine', { preprocessor: pick(onnx, /^preprocess/), encoder: pick(onnx, /^encode/), uncachedDecoder: pick(onnx, /^uncached_decode/), cachedDecoder: pick(onnx, /^cached_decode/), tokens }, ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens']),
    'streaming-transducer': () => transducer('streaming-transducer'),
    'nemo-transducer': () => transducer('nemo-transducer'),
    whisper,
    'sense-voice': () => (tokens && isSenseVoiceTokens(listing.head(rel(tokens))) ? make('sense-voice', { model: pick(onnx, /^model/), tokens }, ['model', 'tokens']) : null),
    'nemo-ctc': () => make('nemo-ctc', { model: pick(onnx, /^model/), tokens }, ['model', 'tokens']),
    gtcrn: () => single('gtcrn', /gtcrn/i),
    'silero-vad': () => single('silero-vad', /silero|vad/i),
    'pyannote-segmentation': () => single('pyannote-segmentation', /pyannote|segmentation/i),
    'speaker-embedding': () => single('speaker-embedding', SPEAKER_EMBEDDING_NAMES),
  };

  if (familyHint) {
    const layout = candidates[familyHint]();
    if (!layout) throw new LayoutError(refusal ?? `the folder does not hold a ${familyHint} model: ${REQUIRED_HINT[familyHint]}`, 'family_mismatch', familyHint);
    return layout;
  }
  // Most specific first: a TTS folder also has model.onnx + tokens.txt, a transducer also has encoder + decoder.
  const order: ModelFamily[] = ['kokoro', 'piper', 'vits', 'moonshine', 'streaming-transducer', 'nemo-transducer', 'whisper', 'sense-voice', 'nemo-ctc'];
  for (const family of order) layouts.push(candidates[family]);
  if (!tokens && onnx.length >= 1) {
    const byMeta = onnx.length === 1 ? singleFileFamily(listing.metadata(rel(onnx[0]!))) : null;
    if (byMeta) layouts.push(candidates[byMeta]);
    const byName: Array<[RegExp, ModelFamily]> = [
      [/gtcrn/i, 'gtcrn'],
      [/silero|vad/i, 'silero-vad'],
      [/pyannote|segmentation/i, 'pyannote-segmentation'],
      [SPEAKER_EMBEDDING_NAMES, 'speaker-embedding'],
    ];
    for (const [re, family] of byName) if (onnx.some((n) => re.test(n))) layouts.push(candidates[family]);
  }
  for (const attempt of layouts) {
    const layout = attempt();
    if (layout) return layout;
  }
  if (refusal) throw new LayoutError(refusal, 'unknown_family');
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
  'nemo-transducer': 'needs *encoder*.onnx, *decoder*.onnx, *joiner*.onnx and tokens.txt, and an offline (non-streaming) encoder',
  'streaming-transducer': 'needs *encoder*.onnx, *decoder*.onnx, *joiner*.onnx and tokens.txt, and a streaming encoder (decode_chunk_len in its metadata)',
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
