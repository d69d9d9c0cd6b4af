/**
 * The curated speech-to-text packages (curated-models.ts has the fields and how pins are sourced). Each pin's source
 * is written beside it.
 */
import type { ModelPackage } from '../model-package.js';
import { SHERPA } from './release-hosts.js';

/** The languages of Whisper large-v3 and large-v3-turbo (in their token order; Cantonese, yue, is new in v3). */
export const WHISPER_V3_LANGUAGES = [
  'en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'tr', 'pl', 'ca', 'nl', 'ar', 'sv', 'it', 'id', 'hi', 'fi', 'vi',
  'he', 'uk', 'el', 'ms', 'cs', 'ro', 'da', 'hu', 'ta', 'no', 'th', 'ur', 'hr', 'bg', 'lt', 'la', 'mi', 'ml', 'cy', 'sk',
  'te', 'fa', 'lv', 'bn', 'sr', 'az', 'sl', 'kn', 'et', 'mk', 'br', 'eu', 'is', 'hy', 'ne', 'mn', 'bs', 'kk', 'sq', 'sw',
  'gl', 'mr', 'pa', 'si', 'km', 'sn', 'yo', 'so', 'af', 'oc', 'ka', 'be', 'tg', 'sd', 'gu', 'am', 'yi', 'lo', 'uz', 'fo',
  'ht', 'ps', 'tk', 'nn', 'mt', 'sa', 'lb', 'my', 'bo', 'tl', 'mg', 'as', 'tt', 'haw', 'ln', 'ha', 'ba', 'jw', 'su', 'yue',
] as const;

export const ASR_PACKAGES: readonly ModelPackage[] = [
  {
    id: 'moonshine-tiny-en',
    name: 'Moonshine tiny (English, int8)',
    description: 'Small, fast English speech recognition (Useful Sensors Moonshine tiny, sherpa-onnx int8 export).',
    capability: 'asr',
    family: 'moonshine',
    languages: ['en'],
    licence: 'MIT',
    version: 'sherpa-onnx-moonshine-tiny-en-int8',
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`,
        sha256: 'd5fe6ec4334fef36255b2a4010412cad4c007e33103fec62fb5d17cad88086f2',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
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
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2`,
        sha256: '2bd6cf965c8bb3e068ef9fa2191387ee63a9dfa2a4e37582a8109641c20005dd',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
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
    speedClass: 'fast',
    files: [
      {
        // Not hashed on this project's build machine (it has no route to github.com), and GitHub publishes no
        // digest for this 2023 release asset. The pin is the value other public projects verify their downloads of
        // this exact URL against (ten source files found; two record measuring it by downloading and hashing the
        // file, on 2026-07-04 and 2026-08-13; two pin the same 310,414,022 bytes). A wrong pin cannot pass silently:
        // the downloader refuses the file with checksum_mismatch.
        url: `${SHERPA}/asr-models/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2`,
        sha256: '639e25b578e9e997131402199419c13a941f8e4e198e2da1ce57dbf5cf401282',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
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
    specFamily: 'P2',
    speedClass: 'medium',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
        sha256: '157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
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
    specFamily: 'P3',
    speedClass: 'medium',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8.tar.bz2`,
        sha256: '5793d0fd397c5778d2cf2126994d58e9d56b1be7c04d13c7a15bb1b4eafb16bf',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
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
    speedClass: 'medium',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-whisper-small.tar.bz2`,
        sha256: '486a46afbb7ba798507190ffe02fea2dd726049af212e774537efac6afb210a6',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
        sizeBytes: 639_387_718,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'whisper-large-v3-turbo',
    name: 'Whisper large-v3-turbo (multilingual, int8)',
    description:
      'OpenAI Whisper large-v3-turbo: the spec\'s W-turbo — 100 languages with language detection, large-v3 quality ' +
      'with a 4-layer decoder (sherpa-onnx int8 export). Transcribes only: turbo was not trained to translate.',
    capability: 'asr',
    family: 'whisper',
    languages: [...WHISPER_V3_LANGUAGES],
    licence: 'MIT',
    version: 'sherpa-onnx-whisper-turbo',
    specFamily: 'W-turbo',
    speedClass: 'slow',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-whisper-turbo.tar.bz2`,
        sha256: 'b11acbbcd660b44a8e0df33724feb5aaa709cf65668f2823d59f656312544f22',
        pinSource:
          'the asr-models release\'s checksum.txt as quoted by a public project, and the same digest and 563,790,207 bytes ' +
          'in eight other public projects that verify this URL (two record hashing the downloaded asset, 2026-09-27 and 2026-10-04)',
        sizeBytes: 563_790_207,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'whisper-large-v3',
    name: 'Whisper large-v3 (multilingual, translates to English, int8)',
    description:
      'OpenAI Whisper large-v3: the spec\'s W-full — 100 languages with language detection, and task translate ' +
      'returns English (sherpa-onnx int8 export). The most accurate Whisper, and the slowest.',
    capability: 'asr',
    family: 'whisper',
    languages: [...WHISPER_V3_LANGUAGES],
    licence: 'MIT',
    version: 'sherpa-onnx-whisper-large-v3',
    specFamily: 'W-full',
    speedClass: 'slow',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-whisper-large-v3.tar.bz2`,
        sha256: '2d0e134b3b5fc4a0533baf24a0c9d473b629aa47f030af0a165a05f461df7a03',
        pinSource:
          'five public projects that verify this URL pin this digest; two of them record 1,068,482,488 bytes, one ' +
          '"measured from the downloaded archive"',
        sizeBytes: 1_068_482_488,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'parakeet-tdt-ctc-110m-en',
    name: 'Parakeet TDT-CTC 110M (English, CTC, int8)',
    description:
      'NVIDIA NeMo Parakeet TDT-CTC 110M, its CTC decoder: the spec\'s P-ctc — English with punctuation and casing, word ' +
      'timings from token times, small and fast (sherpa-onnx int8 export).',
    capability: 'asr',
    family: 'nemo-ctc',
    languages: ['en'],
    licence: 'CC-BY-4.0',
    version: 'sherpa-onnx-nemo-parakeet_tdt_ctc_110m-en-36000-int8',
    specFamily: 'P-ctc',
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-nemo-parakeet_tdt_ctc_110m-en-36000-int8.tar.bz2`,
        sha256: '17f945007b52ccd8b7200ffc7c5652e9e8e961dfdf479cefcabd06cf5703630b',
        pinSource: 'six public projects that verify this URL pin this digest and 104,337,827 bytes',
        sizeBytes: 104_337_827,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'canary-180m-flash',
    name: 'Canary 180M flash (en, de, es, fr; int8)',
    description:
      'NVIDIA NeMo Canary 180M flash: the spec\'s C-flash on device — English, German, Spanish and French with punctuation ' +
      'and casing (sherpa-onnx int8 export). It is told the language (auto transcribes as English); of the spec\'s 25 ' +
      'European languages, these four are the ones the open model and sherpa-onnx run.',
    capability: 'asr',
    family: 'canary',
    languages: ['en', 'de', 'es', 'fr'],
    licence: 'CC-BY-4.0',
    version: 'sherpa-onnx-nemo-canary-180m-flash-en-es-de-fr-int8',
    specFamily: 'C-flash',
    speedClass: 'medium',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-nemo-canary-180m-flash-en-es-de-fr-int8.tar.bz2`,
        sha256: '7a38ed8b13f014ad632b09ff8d22e0c6f1359dd046af9235d281dfae841b9ab9',
        pinSource:
          'three public projects that verify this URL pin this digest; two give 153,692,328 bytes, one as read from the ' +
          'release through api.github.com on 2026-09-01',
        sizeBytes: 153_692_328,
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
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17.tar.bz2`,
        sha256: '7d1efa2138a65b0b488df37f8b89e3d91a60676e416f515b952358d83dfd347e',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
        sizeBytes: 163_002_883,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
];
