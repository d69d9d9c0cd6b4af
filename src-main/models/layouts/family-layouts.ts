/**
 * Each model family's sherpa-onnx folder layout: which files it needs (`needs`, told to a person whose folder does
 * not fit) and how its files are found among a folder's (`find`). A new family is one entry here, and one in
 * LAYOUT_ORDER when it can be recognised without being named.
 */
import type { ModelFamily } from '../../common/model-families.js';
import type { OnnxMetadata } from '../../engines/onnx-metadata.js';
import type { FamilyLayout, ModelFolder } from './layout-types.js';

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
  if (type === 'dpdfnet') return 'dpdfnet';
  if (type === 'UVR') return 'uvr';
  if (meta.punctuations && meta.tokens) return 'punctuation';
  if (/^pyannote/i.test(type)) return 'pyannote-segmentation';
  if (meta.framework || meta.output_dim) return 'speaker-embedding';
  return null;
}

const SPEAKER_EMBEDDING_NAMES = /titanet|wespeaker|3dspeaker|3d-speaker|campplus|eres2net|speaker|embedding/i;

/** Single-file families, with the file names that suggest each when the metadata does not say. */
const SINGLE_FILE_NAMES: ReadonlyArray<[RegExp, ModelFamily]> = [
  [/gtcrn/i, 'gtcrn'],
  [/dpdfnet/i, 'dpdfnet'],
  [/uvr|mdx/i, 'uvr'],
  [/silero|vad/i, 'silero-vad'],
  [/pyannote|segmentation/i, 'pyannote-segmentation'],
  [/punct/i, 'punctuation'],
  [SPEAKER_EMBEDDING_NAMES, 'speaker-embedding'],
];

/** A family of one .onnx file (no tokens): the file named like the family, or the only one unless its metadata names another. */
function singleFile(family: ModelFamily, re: RegExp): FamilyLayout {
  return {
    needs: 'needs one .onnx file',
    async find(folder) {
      const only = folder.onnx.length === 1 && !folder.tokens ? folder.onnx[0]! : null;
      const declared = only ? singleFileFamily(await folder.metadata(only)) : null;
      if (declared && declared !== family) return null; // its metadata names another family
      return folder.make(family, { model: folder.pick(re) ?? only }, ['model']);
    },
  };
}

function transducer(family: 'nemo-transducer' | 'streaming-transducer'): FamilyLayout {
  const streaming = family === 'streaming-transducer';
  return {
    expected: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
    needs: streaming
      ? 'needs *encoder*.onnx, *decoder*.onnx, *joiner*.onnx and tokens.txt, and a streaming encoder (decode_chunk_len in its metadata)'
      : 'needs *encoder*.onnx, *decoder*.onnx, *joiner*.onnx and tokens.txt, and an offline (non-streaming) encoder',
    async find(folder) {
      const encoder = folder.pick(/encoder/);
      if (!encoder || isStreamingEncoder(await folder.metadata(encoder), encoder) !== streaming) return null;
      return folder.make(family, { encoder, decoder: folder.pick(/decoder/), joiner: folder.pick(/joiner/), tokens: folder.tokens }, ['encoder', 'decoder', 'joiner', 'tokens']);
    },
  };
}

const espeakData = (folder: ModelFolder) => (folder.hasDir('espeak-ng-data') ? 'espeak-ng-data' : null);

/**
 * Whether an encoder + decoder + tokens folder is NeMo Canary rather than Whisper: the encoder's metadata says
 * EncDecMultiTaskModel, or (without readable metadata) tokens.txt has Canary's prompt tokens.
 */
async function isCanary(folder: ModelFolder): Promise<boolean> {
  const encoder = folder.pick(/encoder/);
  const meta = encoder ? await folder.metadata(encoder) : null;
  if (meta && Object.keys(meta).length > 0) return meta.model_type === 'EncDecMultiTaskModel';
  const head = folder.tokens ? await folder.head(folder.tokens) : null;
  return head !== null && head.includes('<|startofcontext|>');
}

export const FAMILY_LAYOUTS: Record<ModelFamily, FamilyLayout> = {
  whisper: {
    expected: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', tokens: 'tokens.txt' },
    needs: 'needs *encoder*.onnx, *decoder*.onnx and tokens.txt',
    async find(folder) {
      if (folder.pick(/joiner/) || (await isCanary(folder))) return null;
      const layout = folder.make('whisper', { encoder: folder.pick(/encoder/), decoder: folder.pick(/decoder/), tokens: folder.tokens }, ['encoder', 'decoder', 'tokens']);
      const languages = layout ? whisperLanguages(await folder.metadata(folder.pick(/encoder/)!)) : undefined;
      return layout && languages ? { ...layout, languages } : layout;
    },
  },
  'nemo-ctc': {
    expected: { model: 'model.onnx', tokens: 'tokens.txt' },
    needs: 'needs model*.onnx and tokens.txt',
    // A voice folder (voices.bin, espeak-ng-data) has model.onnx and tokens.txt too: never a recognizer.
    find: async (folder) =>
      folder.has('voices.bin') || espeakData(folder) ? null : folder.make('nemo-ctc', { model: folder.pick(/^model/), tokens: folder.tokens }, ['model', 'tokens']),
  },
  'nemo-transducer': transducer('nemo-transducer'),
  'streaming-transducer': transducer('streaming-transducer'),
  moonshine: {
    expected: { preprocessor: 'preprocess.onnx', encoder: 'encode.onnx', uncachedDecoder: 'uncached_decode.onnx', cachedDecoder: 'cached_decode.onnx', tokens: 'tokens.txt' },
    needs: 'needs preprocess*.onnx, encode*.onnx, uncached_decode*.onnx, cached_decode*.onnx and tokens.txt',
    find: async (f) =>
      f.make(
        'moonshine',
        { preprocessor: f.pick(/^preprocess/), encoder: f.pick(/^encode/), uncachedDecoder: f.pick(/^uncached_decode/), cachedDecoder: f.pick(/^cached_decode/), tokens: f.tokens },
        ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens'],
      ),
  },
  'sense-voice': {
    expected: { model: 'model.onnx', tokens: 'tokens.txt' },
    needs: 'needs model*.onnx and a SenseVoice tokens.txt (with <|zh|>, <|en|> … tokens)',
    async find(folder) {
      const head = folder.tokens ? await folder.head(folder.tokens) : null;
      const senseVoice = head !== null && head.includes('<|zh|>') && head.includes('<|withitn|>');
      return senseVoice ? folder.make('sense-voice', { model: folder.pick(/^model/), tokens: folder.tokens }, ['model', 'tokens']) : null;
    },
  },
  canary: {
    expected: { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', tokens: 'tokens.txt' },
    needs: 'needs *encoder*.onnx (a NeMo EncDecMultiTaskModel export), *decoder*.onnx and tokens.txt',
    async find(folder) {
      if (folder.pick(/joiner/) || !(await isCanary(folder))) return null;
      return folder.make('canary', { encoder: folder.pick(/encoder/), decoder: folder.pick(/decoder/), tokens: folder.tokens }, ['encoder', 'decoder', 'tokens']);
    },
  },
  // A lexicon VITS (model, tokens, lexicon.txt), or a character-level one (Coqui's Common Voice exports: metadata
  // frontend "characters"), which sherpa-onnx spells from tokens.txt alone.
  vits: {
    expected: { model: 'model.onnx', tokens: 'tokens.txt' },
    needs: 'needs *.onnx, tokens.txt and lexicon.txt (or a character-level model: frontend "characters" in its metadata)',
    async find(f) {
      const model = f.pick(/\.onnx$/);
      const lexicon = f.has('lexicon.txt') ? 'lexicon.txt' : null;
      if (!lexicon && (!model || (await f.metadata(model))?.frontend !== 'characters')) return null;
      return f.make('vits', { model, tokens: f.tokens, lexicon, dataDir: espeakData(f) }, ['model', 'tokens']);
    },
  },
  piper: {
    expected: { model: 'model.onnx', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' },
    needs: 'needs *.onnx, tokens.txt and an espeak-ng-data folder',
    async find(folder) {
      const model = folder.pick(/\.onnx$/);
      const layout = folder.make('piper', { model, tokens: folder.tokens, dataDir: espeakData(folder) }, ['model', 'tokens', 'dataDir']);
      const refused = layout ? espeakVitsRefusal(await folder.metadata(model!), model!) : null;
      if (!refused) return layout;
      if (!folder.has('lexicon.txt')) folder.refuse(refused);
      return null;
    },
  },
  // v0.19 (English): model, voices.bin, tokens, espeak-ng-data. v1.0 (multilingual, metadata version 2) also needs
  // its lexicons, lexicon-us-en.txt and lexicon-zh.txt: without one sherpa-onnx ends the process at load.
  kokoro: {
    expected: { model: 'model.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data', lexicon: 'lexicon-us-en.txt', lexiconZh: 'lexicon-zh.txt' },
    needs: 'needs *.onnx, voices.bin, tokens.txt and an espeak-ng-data folder (Kokoro v1.0: also lexicon-us-en.txt or lexicon-zh.txt)',
    async find(f) {
      const model = f.pick(/\.onnx$/);
      if (model && (await f.metadata(model))?.model_type === 'kitten-tts') return null;
      const lexicon = f.has('lexicon-us-en.txt') ? 'lexicon-us-en.txt' : null;
      const lexiconZh = f.has('lexicon-zh.txt') ? 'lexicon-zh.txt' : null;
      const layout = f.make('kokoro', { model, voices: f.has('voices.bin') ? 'voices.bin' : null, tokens: f.tokens, dataDir: espeakData(f), lexicon, lexiconZh }, ['model', 'voices', 'tokens', 'dataDir']);
      if (!layout || lexicon || lexiconZh) return layout;
      const meta = await f.metadata(model!);
      if (Number(meta?.version ?? '1') < 2) return layout;
      f.refuse(`${model} is a multilingual Kokoro (v1.0) without lexicon-us-en.txt or lexicon-zh.txt: sherpa-onnx cannot load it without one. Use the whole kokoro-multi-lang-v1_0 folder`);
      return null;
    },
  },
  // matcha-icefall-*.tar.bz2 holds model-steps-3.onnx, tokens.txt and espeak-ng-data (or lexicon.txt); its vocoder
  // (hifigan_v2.onnx or vocos-22khz-univ.onnx, vocoder-models release) is a second file beside them.
  matcha: {
    expected: { acousticModel: 'model-steps-3.onnx', vocoder: 'hifigan_v2.onnx', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' },
    needs: 'needs the acoustic model (model-steps-*.onnx), a vocoder (*hifigan*.onnx or *vocos*.onnx), tokens.txt, and espeak-ng-data or lexicon.txt',
    async find(f) {
      const vocoder = f.pick(/hifigan|vocos|vocoder/i);
      const acousticModel = f.onnx.find((name) => name !== vocoder && /model-steps|acoustic|matcha/i.test(name)) ?? (f.onnx.length === 2 ? f.onnx.find((name) => name !== vocoder) : null) ?? null;
      const lexicon = f.has('lexicon.txt') ? 'lexicon.txt' : null;
      const dataDir = espeakData(f);
      if (!lexicon && !dataDir) return null;
      return f.make('matcha', { acousticModel, vocoder, tokens: f.tokens, lexicon, dataDir }, ['acousticModel', 'vocoder', 'tokens']);
    },
  },
  // kitten-nano-en-v0_1-fp16.tar.bz2: Kokoro's layout (model, voices.bin, tokens, espeak-ng-data), told apart by the
  // model's metadata (model_type kitten-tts): sherpa-onnx refuses a Kitten model loaded as Kokoro and the reverse.
  kitten: {
    expected: { model: 'model.fp16.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' },
    needs: 'needs *.onnx (model_type kitten-tts in its metadata), voices.bin, tokens.txt and an espeak-ng-data folder',
    async find(f) {
      const model = f.pick(/\.onnx$/);
      if (!model || (await f.metadata(model))?.model_type !== 'kitten-tts') return null;
      return f.make('kitten', { model, voices: f.has('voices.bin') ? 'voices.bin' : null, tokens: f.tokens, dataDir: espeakData(f) }, ['model', 'voices', 'tokens', 'dataDir']);
    },
  },
  gtcrn: { ...singleFile('gtcrn', /gtcrn/i), expected: { model: 'gtcrn.onnx' } },
  dpdfnet: { ...singleFile('dpdfnet', /dpdfnet/i), expected: { model: 'dpdfnet_baseline.onnx' } },
  // sherpa-onnx-spleeter-2stems*.tar.bz2: vocals[.int8|.fp16].onnx and accompaniment[…].onnx, no tokens.
  spleeter: {
    expected: { vocals: 'vocals.onnx', accompaniment: 'accompaniment.onnx' },
    needs: 'needs *vocals*.onnx and *accompaniment*.onnx (a Spleeter 2-stems export)',
    async find(folder) {
      if (folder.tokens) return null;
      const vocals = folder.pick(/vocals/);
      if (!vocals) return null;
      const meta = await folder.metadata(vocals);
      if (meta && Object.keys(meta).length > 0 && meta.model_type !== 'spleeter') return null;
      return folder.make('spleeter', { vocals, accompaniment: folder.pick(/accompaniment/) }, ['vocals', 'accompaniment']);
    },
  },
  uvr: { ...singleFile('uvr', /uvr|mdx/i), expected: { model: 'model.onnx' } },
  // sherpa-onnx-zipvoice-distill-*.tar.bz2: encoder[.int8].onnx, decoder[.int8].onnx, tokens.txt, lexicon.txt and
  // espeak-ng-data; its vocoder (vocos_24khz.onnx, vocoder-models release) is a second file beside them.
  zipvoice: {
    expected: { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', vocoder: 'vocos_24khz.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt', dataDir: 'espeak-ng-data' },
    needs: 'needs *encoder*.onnx, *decoder*.onnx, a Vocos vocoder (*vocos*.onnx), tokens.txt, lexicon.txt and an espeak-ng-data folder',
    async find(f) {
      const vocoder = f.pick(/vocos|vocoder/i);
      const encoder = f.pick(/encoder/);
      if (!vocoder || !encoder || f.pick(/joiner/)) return null;
      const meta = await f.metadata(encoder);
      // ZipVoice's encoder says use_espeak; a Whisper or transducer encoder has other keys.
      if (meta && Object.keys(meta).length > 0 && !('use_espeak' in meta)) return null;
      return f.make(
        'zipvoice',
        { encoder, decoder: f.pick(/decoder/), vocoder, tokens: f.tokens, lexicon: f.has('lexicon.txt') ? 'lexicon.txt' : null, dataDir: espeakData(f) },
        ['encoder', 'decoder', 'vocoder', 'tokens', 'lexicon', 'dataDir'],
      );
    },
  },
  // sherpa-onnx-pocket-tts-*.tar.bz2: lm_flow, lm_main, encoder, decoder and text_conditioner (.onnx, some .int8),
  // vocab.json and token_scores.json (the text conditioner's SentencePiece vocabulary).
  pocket: {
    expected: {
      lmFlow: 'lm_flow.int8.onnx',
      lmMain: 'lm_main.int8.onnx',
      encoder: 'encoder.onnx',
      decoder: 'decoder.int8.onnx',
      textConditioner: 'text_conditioner.onnx',
      vocabJson: 'vocab.json',
      tokenScoresJson: 'token_scores.json',
    },
    needs: 'needs lm_flow*.onnx, lm_main*.onnx, encoder*.onnx, decoder*.onnx, text_conditioner*.onnx, vocab.json and token_scores.json',
    async find(f) {
      const lmFlow = f.pick(/lm_flow/);
      if (!lmFlow) return null;
      return f.make(
        'pocket',
        {
          lmFlow,
          lmMain: f.pick(/lm_main/),
          encoder: f.pick(/^encoder/),
          decoder: f.pick(/^decoder/),
          textConditioner: f.pick(/text_conditioner/),
          vocabJson: f.has('vocab.json') ? 'vocab.json' : null,
          tokenScoresJson: f.has('token_scores.json') ? 'token_scores.json' : null,
        },
        ['lmFlow', 'lmMain', 'encoder', 'decoder', 'textConditioner', 'vocabJson', 'tokenScoresJson'],
      );
    },
  },
  'silero-vad': singleFile('silero-vad', /silero|vad/i),
  'pyannote-segmentation': singleFile('pyannote-segmentation', /pyannote|segmentation/i),
  'speaker-embedding': singleFile('speaker-embedding', SPEAKER_EMBEDDING_NAMES),
  punctuation: { ...singleFile('punctuation', /punct|model/i), expected: { model: 'model.int8.onnx' } },
  // sherpa-onnx's spoken-language identification runs a multilingual Whisper's encoder and decoder (its release is
  // sherpa-onnx-whisper-tiny.tar.bz2). Named only: the same folder is a Whisper recognizer when not named.
  'language-id': {
    expected: { encoder: 'tiny-encoder.int8.onnx', decoder: 'tiny-decoder.int8.onnx' },
    needs: 'needs a multilingual Whisper export: *encoder*.onnx and *decoder*.onnx',
    async find(folder) {
      const encoder = folder.pick(/encoder/);
      const languages = encoder ? whisperLanguages(await folder.metadata(encoder)) : undefined;
      // sherpa-onnx ends the process on an English-only Whisper here ("Only whisper multilingual models…").
      if (languages && languages.length < 2) {
        folder.refuse(`${encoder} is an English-only Whisper: spoken-language identification needs a multilingual one (e.g. sherpa-onnx-whisper-tiny)`);
        return null;
      }
      const layout = folder.make('language-id', { encoder, decoder: folder.pick(/decoder/) }, ['encoder', 'decoder']);
      return layout && languages ? { ...layout, languages } : layout;
    },
  },
};

/** Families tried on a folder given without one, most specific first: a voice folder also has model.onnx + tokens.txt, a transducer also has encoder + decoder. */
export const LAYOUT_ORDER: readonly ModelFamily[] = ['pocket', 'zipvoice', 'matcha', 'kitten', 'kokoro', 'piper', 'vits', 'moonshine', 'streaming-transducer', 'nemo-transducer', 'canary', 'whisper', 'sense-voice', 'nemo-ctc', 'spleeter'];

/** The single-file families worth trying on a folder of .onnx files without tokens: the one its metadata names, then those its file names suggest. */
export async function singleFileCandidates(folder: ModelFolder): Promise<ModelFamily[]> {
  if (folder.tokens || folder.onnx.length === 0) return [];
  const out: ModelFamily[] = [];
  const byMeta = folder.onnx.length === 1 ? singleFileFamily(await folder.metadata(folder.onnx[0]!)) : null;
  if (byMeta) out.push(byMeta);
  for (const [re, family] of SINGLE_FILE_NAMES) if (folder.onnx.some((n) => re.test(n))) out.push(family);
  return out;
}
