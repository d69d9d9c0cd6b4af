/**
 * The curated list of downloadable model packages. Every sha256 and size below is a published value, not one made
 * up: the sherpa-onnx release archives' digests as pinned by several public projects that verify them, and for the
 * four single files that also ship in ../shared/models (Silero VAD v5, GTCRN, pyannote segmentation) hashes computed
 * here from those very files. A file whose digest is unknown would carry `sha256: null`: the downloader then records
 * the hash it computed and the package is shown as unverified.
 *
 * Bump CURATED_LIST_VERSION whenever a package is added, removed or re-pinned.
 */
import type { ModelFamily } from '../../common/model-families.js';
import type { PackageCapability } from '../family-engines.js';

export const CURATED_LIST_VERSION = 2;

export interface PackageFile {
  url: string;
  /** Lower-case hex sha256 of the downloaded bytes; null when no published value exists (verified on first download). */
  sha256: string | null;
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
}

const SHERPA = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

export const CURATED_PACKAGES: readonly ModelPackage[] = [
  {
    id: 'moonshine-tiny-en',
    name: 'Moonshine tiny (English, int8)',
    description: 'Small, fast English speech recognition (Useful Sensors Moonshine tiny, sherpa-onnx int8 export).',
    capability: 'asr',
    family: 'moonshine',
    languages: ['en'],
    licence: 'MIT',
    version: 'sherpa-onnx-moonshine-tiny-en-int8',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`,
        sha256: 'd5fe6ec4334fef36255b2a4010412cad4c007e33103fec62fb5d17cad88086f2',
        sizeBytes: 107_600_538,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'whisper-tiny-en',
    name: 'Whisper tiny.en',
    description: 'OpenAI Whisper tiny, English only: the smallest Whisper (sherpa-onnx export, int8 and fp32).',
    capability: 'asr',
    family: 'whisper',
    languages: ['en'],
    licence: 'MIT',
    version: 'sherpa-onnx-whisper-tiny.en',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2`,
        sha256: '2bd6cf965c8bb3e068ef9fa2191387ee63a9dfa2a4e37582a8109641c20005dd',
        sizeBytes: 118_071_777,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'streaming-zipformer-en-2023-06-26',
    name: 'Streaming Zipformer (English)',
    description:
      'k2-fsa icefall streaming Zipformer transducer (LibriSpeech + GigaSpeech): recognises as you speak, with partial ' +
      'results every 320 ms and word timings — the model for live dictation.',
    capability: 'asr',
    family: 'streaming-transducer',
    languages: ['en'],
    licence: 'Apache-2.0',
    version: 'sherpa-onnx-streaming-zipformer-en-2023-06-26',
    files: [
      {
        // Not hashed on this project's build machine (it has no route to github.com), and GitHub publishes no
        // digest for this 2023 release asset. The pin is the value other public projects verify their downloads of
        // this exact URL against (ten source files found; two record measuring it by downloading and hashing the
        // file, on 2026-07-04 and 2026-08-13; two pin the same 310,414,022 bytes). A wrong pin cannot pass silently:
        // the downloader refuses the file with checksum_mismatch.
        url: `${SHERPA}/asr-models/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2`,
        sha256: '639e25b578e9e997131402199419c13a941f8e4e198e2da1ce57dbf5cf401282',
        sizeBytes: 310_414_022,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'parakeet-tdt-0.6b-v2',
    name: 'Parakeet TDT 0.6B v2 (English, int8)',
    description: 'NVIDIA NeMo Parakeet TDT 0.6B v2: strong English recognition with punctuation and word timings.',
    capability: 'asr',
    family: 'nemo-transducer',
    languages: ['en'],
    licence: 'CC-BY-4.0',
    version: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
        sha256: '157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad',
        sizeBytes: 482_468_385,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'parakeet-tdt-0.6b-v3',
    name: 'Parakeet TDT 0.6B v3 (25 European languages, int8)',
    description: 'NVIDIA NeMo Parakeet TDT 0.6B v3: multilingual recognition for 25 European languages.',
    capability: 'asr',
    family: 'nemo-transducer',
    languages: ['bg', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'hu', 'it', 'lv', 'lt', 'mt', 'pl', 'pt', 'ro', 'sk', 'sl', 'es', 'sv', 'ru', 'uk'],
    licence: 'CC-BY-4.0',
    version: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8.tar.bz2`,
        sha256: '5793d0fd397c5778d2cf2126994d58e9d56b1be7c04d13c7a15bb1b4eafb16bf',
        sizeBytes: 487_170_055,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'whisper-small',
    name: 'Whisper small (multilingual)',
    description: 'OpenAI Whisper small: about 100 languages with language detection (sherpa-onnx export).',
    capability: 'asr',
    family: 'whisper',
    languages: ['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'tr', 'pl', 'ca', 'nl', 'ar', 'sv', 'it', 'id', 'hi', 'fi', 'vi', 'he', 'uk', 'el', 'ms', 'cs', 'ro', 'da', 'hu', 'ta', 'no', 'th', 'ur'],
    licence: 'MIT',
    version: 'sherpa-onnx-whisper-small',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-whisper-small.tar.bz2`,
        sha256: '486a46afbb7ba798507190ffe02fea2dd726049af212e774537efac6afb210a6',
        sizeBytes: 639_387_718,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'sense-voice-2024-07-17',
    name: 'SenseVoice small (zh, en, ja, ko, yue; int8)',
    description: 'FunAudioLLM SenseVoice small: fast multilingual recognition with language detection.',
    capability: 'asr',
    family: 'sense-voice',
    languages: ['zh', 'en', 'ja', 'ko', 'yue'],
    licence: 'FunASR Model License 1.1',
    version: 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17.tar.bz2`,
        sha256: '7d1efa2138a65b0b488df37f8b89e3d91a60676e416f515b952358d83dfd347e',
        sizeBytes: 163_002_883,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'kokoro-en-v0_19',
    name: 'Kokoro 82M v0.19 (English, int8)',
    description: 'Kokoro 82M: natural English speech, 11 voices, 24 kHz (sherpa-onnx int8 export with espeak-ng data).',
    capability: 'tts',
    family: 'kokoro',
    languages: ['en'],
    licence: 'Apache-2.0',
    version: 'kokoro-int8-en-v0_19',
    numSpeakers: 11,
    sampleRate: 24_000,
    files: [
      {
        url: `${SHERPA}/tts-models/kokoro-int8-en-v0_19.tar.bz2`,
        sha256: 'c9f0dd393615805b0bab050c340834d5e684e732aec91c0e860cd30e982c08bd',
        sizeBytes: 103_248_205,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'piper-en-us-lessac-medium',
    name: 'Piper en_US lessac (medium)',
    description: 'Piper VITS voice, US English, one speaker, 22.05 kHz (sherpa-onnx package with espeak-ng data).',
    capability: 'tts',
    family: 'piper',
    languages: ['en'],
    licence: 'Piper voice: see MODEL_CARD in the package (Lessac Blizzard 2011 data)',
    version: 'vits-piper-en_US-lessac-medium',
    numSpeakers: 1,
    sampleRate: 22_050,
    files: [
      {
        url: `${SHERPA}/tts-models/vits-piper-en_US-lessac-medium.tar.bz2`,
        sha256: '9e3febfacf0abf4270172d2958bcec246032b7e88efc2720840cc80c93de334e',
        sizeBytes: 67_230_653,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'gtcrn-simple',
    name: 'GTCRN speech denoiser',
    description: 'GTCRN: a tiny neural speech denoiser (16 kHz), run by sherpa-onnx.',
    capability: 'noise_reduction',
    family: 'gtcrn',
    languages: [],
    licence: 'MIT',
    version: 'gtcrn_simple',
    files: [
      {
        url: `${SHERPA}/speech-enhancement-models/gtcrn_simple.onnx`,
        sha256: 'e77603ac0c23dac3227dd2d7135b3a585cbee2679048aecfa886657d3ae1b534',
        sizeBytes: 535_638,
        path: 'gtcrn_simple.onnx',
      },
    ],
  },
  {
    id: 'silero-vad-v5',
    name: 'Silero VAD v5',
    description: 'Voice activity detection: cuts long recordings into speech segments before recognition.',
    capability: 'support',
    family: 'silero-vad',
    languages: [],
    licence: 'MIT',
    version: 'v5.1.2',
    files: [
      {
        url: 'https://raw.githubusercontent.com/snakers4/silero-vad/v5.1.2/src/silero_vad/data/silero_vad.onnx',
        sha256: '2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f',
        sizeBytes: 2_327_524,
        path: 'silero_vad.onnx',
      },
    ],
  },
  {
    id: 'pyannote-segmentation-3-0',
    name: 'pyannote segmentation 3.0 (int8)',
    description: 'Speaker segmentation for diarization (who spoke when), sherpa-onnx int8 export.',
    capability: 'support',
    family: 'pyannote-segmentation',
    languages: [],
    licence: 'MIT',
    version: 'sherpa-onnx-pyannote-segmentation-3-0',
    files: [
      {
        url: 'https://huggingface.co/csukuangfj/sherpa-onnx-pyannote-segmentation-3-0/resolve/main/model.int8.onnx',
        sha256: 'd582f4b4c6b48205de7e0643c57df0df5615a3c176189be3fc461e9d18827b5d',
        sizeBytes: 1_540_506,
        path: 'model.int8.onnx',
      },
    ],
  },
  {
    id: 'titanet-small-en',
    name: 'NeMo TitaNet small (speaker embedding)',
    description: 'Speaker embeddings (192-dim) that group segments by voice for diarization.',
    capability: 'support',
    family: 'speaker-embedding',
    languages: [],
    licence: 'CC-BY-4.0',
    version: 'nemo_en_titanet_small',
    files: [
      {
        url: `${SHERPA}/speaker-recongition-models/nemo_en_titanet_small.onnx`,
        sha256: 'ad4a1802485d8b34c722d2a9d04249662f2ece5d28a7a039063ca22f515a789e',
        sizeBytes: 40_257_283,
        path: 'nemo_en_titanet_small.onnx',
      },
    ],
  },
];

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
