/**
 * The curated voices (text to speech; curated-models.ts has the fields and how pins are sourced). Each pin's source is
 * written beside it.
 */
import type { ModelPackage } from '../model-package.js';
import { SHERPA } from './release-hosts.js';

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
