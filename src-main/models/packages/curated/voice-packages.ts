/**
 * The curated voices (text to speech; curated-models.ts has the fields and how pins are sourced). Each pin's source is
 * written beside it.
 */
import type { ModelPackage } from '../model-package.js';
import { SHERPA } from './release-hosts.js';

/** Kokoro v1.0's voices in speaker-id order (sherpa-onnx scripts/kokoro/v1.0/generate_voices_bin.py): the first letter is the language. */
export const KOKORO_V1_SPEAKERS = [
  'af_alloy', 'af_aoede', 'af_bella', 'af_heart', 'af_jessica', 'af_kore', 'af_nicole', 'af_nova', 'af_river', 'af_sarah', 'af_sky',
  'am_adam', 'am_echo', 'am_eric', 'am_fenrir', 'am_liam', 'am_michael', 'am_onyx', 'am_puck', 'am_santa',
  'bf_alice', 'bf_emma', 'bf_isabella', 'bf_lily', 'bm_daniel', 'bm_fable', 'bm_george', 'bm_lewis',
  'ef_dora', 'em_alex', 'ff_siwis', 'hf_alpha', 'hf_beta', 'hm_omega', 'hm_psi', 'if_sara', 'im_nicola',
  'jf_alpha', 'jf_gongitsune', 'jf_nezumi', 'jf_tebukuro', 'jm_kumo', 'pf_dora', 'pm_alex', 'pm_santa',
  'zf_xiaobei', 'zf_xiaoni', 'zf_xiaoxiao', 'zf_xiaoyi', 'zm_yunjian', 'zm_yunxi', 'zm_yunxia', 'zm_yunyang',
] as const;

export const VOICE_PACKAGES: readonly ModelPackage[] = [
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
    speedClass: 'medium',
    files: [
      {
        url: `${SHERPA}/tts-models/kokoro-int8-en-v0_19.tar.bz2`,
        sha256: 'c9f0dd393615805b0bab050c340834d5e684e732aec91c0e860cd30e982c08bd',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
        sizeBytes: 103_248_205,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'kokoro-multi-lang-v1_0',
    name: 'Kokoro 82M v1.0 (multilingual)',
    description:
      'Kokoro 82M v1.0: 53 voices in nine languages — English (US and UK), Spanish, French, Hindi, Italian, Japanese, ' +
      'Brazilian Portuguese and Mandarin Chinese — 24 kHz; each voice speaks with its own language (sherpa-onnx export ' +
      'with espeak-ng data and the English and Chinese lexicons).',
    capability: 'tts',
    family: 'kokoro',
    languages: ['en', 'es', 'fr', 'hi', 'it', 'ja', 'pt', 'zh'],
    licence: 'Apache-2.0',
    version: 'kokoro-multi-lang-v1_0',
    numSpeakers: KOKORO_V1_SPEAKERS.length,
    speakerNames: [...KOKORO_V1_SPEAKERS],
    sampleRate: 24_000,
    speedClass: 'medium',
    files: [
      {
        url: `${SHERPA}/tts-models/kokoro-multi-lang-v1_0.tar.bz2`,
        sha256: 'c5f7e2d2caf082bc1d20fb70334a61d99d20b484500aad32e7cf84c128ea3298',
        pinSource:
          'the asset as re-uploaded on 2026-09-08: a Nix expression fetching this URL pins this digest ' +
          '(sha256-xffi0srwgrwdIPtwM0ph2Z0gtIRQCq0y58+EwSjqMpg=) and an Android project lists it with 349,906,910 bytes ' +
          '(its earlier upload, c133d263…7046 of 349,418,188 bytes, is what older projects pin)',
        sizeBytes: 349_906_910,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'matcha-icefall-en-us-ljspeech',
    name: 'Matcha-TTS LJSpeech (English) with HiFi-GAN v2',
    description:
      'Matcha-TTS (icefall, trained on LJ Speech): one US English voice, 22.05 kHz, fast and natural; two files — the ' +
      'acoustic model with its espeak-ng data, and the HiFi-GAN v2 vocoder that turns its mel frames into sound.',
    capability: 'tts',
    family: 'matcha',
    languages: ['en'],
    licence: 'Apache-2.0 (acoustic model: icefall; LJ Speech is public domain); HiFi-GAN v2: MIT',
    version: 'matcha-icefall-en_US-ljspeech + hifigan_v2',
    numSpeakers: 1,
    sampleRate: 22_050,
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/tts-models/matcha-icefall-en_US-ljspeech.tar.bz2`,
        sha256: 'ea75702da7456a8b1874728278a835220dc8a26f4e8bd93c83bf53dc27679845',
        pinSource: 'three public projects that verify this URL pin this digest, two with 76,741,121 bytes',
        sizeBytes: 76_741_121,
        path: '',
        extract: 'tar.bz2',
      },
      {
        url: `${SHERPA}/vocoder-models/hifigan_v2.onnx`,
        sha256: 'a41d404cce7924493540238da5b30a4bc14b6ddaf1a37f3c79fa4f59548c19f0',
        pinSource: 'two public projects that verify this URL pin this digest, one with 3,749,714 bytes',
        sizeBytes: 3_749_714,
        path: 'hifigan_v2.onnx',
      },
    ],
  },
  {
    id: 'kitten-nano-en-v0_1',
    name: 'Kitten TTS nano v0.1 (English, fp16)',
    description: 'Kitten TTS nano: eight small English voices (four female, four male), 24 kHz, 25 MB (sherpa-onnx fp16 export with espeak-ng data).',
    capability: 'tts',
    family: 'kitten',
    languages: ['en'],
    licence: 'Apache-2.0',
    version: 'kitten-nano-en-v0_1-fp16',
    numSpeakers: 8,
    speakerNames: ['expr-voice-2-m', 'expr-voice-2-f', 'expr-voice-3-m', 'expr-voice-3-f', 'expr-voice-4-m', 'expr-voice-4-f', 'expr-voice-5-m', 'expr-voice-5-f'],
    sampleRate: 24_000,
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/tts-models/kitten-nano-en-v0_1-fp16.tar.bz2`,
        sha256: 'f35dac93754fe2ac97c66e1f468311d0d2130f7f0f5a89bfa1197e09a0cbdec5',
        pinSource: 'five public projects that verify this URL pin this digest, three with 26,855,312 bytes',
        sizeBytes: 26_855_312,
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
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/tts-models/vits-piper-en_US-lessac-medium.tar.bz2`,
        sha256: '9e3febfacf0abf4270172d2958bcec246032b7e88efc2720840cc80c93de334e',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
        sizeBytes: 67_230_653,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'piper-de-de-thorsten-medium',
    name: 'Piper de_DE Thorsten (medium)',
    description: 'Piper VITS voice, German, one speaker, 22.05 kHz (sherpa-onnx package with espeak-ng data).',
    capability: 'tts',
    family: 'piper',
    languages: ['de'],
    licence: 'Piper voice MIT; Thorsten-Voice dataset CC0-1.0',
    version: 'vits-piper-de_DE-thorsten-medium',
    numSpeakers: 1,
    sampleRate: 22_050,
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/tts-models/vits-piper-de_DE-thorsten-medium.tar.bz2`,
        sha256: '50487d9c95fdf2191f31d2588569381063ba1591dcd4c7d4bdd30f12b2191714',
        pinSource:
          'the tts-models release\'s checksum.txt as quoted by a public project, and the same digest in six others that ' +
          'verify this URL (three with 67,214,254 bytes)',
        sizeBytes: 67_214_254,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
];
