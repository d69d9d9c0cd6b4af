/**
 * The curated zero-shot voice packages (engines/cloning): ZipVoice-Distill (int8, Chinese and English) as sherpa-onnx
 * releases it, with the Vocos 24 kHz vocoder it needs as a second file beside it, and Kyutai's Pocket TTS (int8,
 * English) as sherpa-onnx converts it. Each pin below is the size and digest several public projects that download
 * these exact URLs verify; curated-models.ts has the fields and how pins are sourced.
 */
import type { ModelPackage } from '../model-package.js';
import { SHERPA } from './release-hosts.js';

export const CLONING_PACKAGES: readonly ModelPackage[] = [
  {
    id: 'zipvoice-distill-int8-zh-en',
    name: 'ZipVoice-Distill (Chinese and English) with Vocos 24 kHz',
    description:
      'Zero-shot voice cloning and continuation: speaks Chinese or English text in the voice of a 1-30 s reference ' +
      'recording (24 kHz). Needs the words said in the reference: sent with the request, or transcribed by an installed ' +
      'speech-to-text model. Two files: the model archive (encoder, flow-matching decoder, tokens, lexicon, espeak-ng ' +
      'data) and the Vocos vocoder.',
    capability: 'voice_cloning',
    family: 'zipvoice',
    languages: ['zh', 'en'],
    licence: 'Apache-2.0 (ZipVoice, k2-fsa); Vocos vocoder: MIT',
    version: 'sherpa-onnx-zipvoice-distill-int8-zh-en-emilia + vocos_24khz',
    sampleRate: 24_000,
    speedClass: 'slow',
    files: [
      {
        url: `${SHERPA}/tts-models/sherpa-onnx-zipvoice-distill-int8-zh-en-emilia.tar.bz2`,
        sha256: '77219c8b40f4ee8d73a7f902305ff6c1128ef9b54461c41b4ca6ed890b6c2803',
        pinSource:
          'six public projects that download this URL pin this digest, four with 109,162,785 bytes (one other project pins an earlier upload of 147,573,432 bytes)',
        sizeBytes: 109_162_785,
        path: '',
        extract: 'tar.bz2',
      },
      {
        url: `${SHERPA}/vocoder-models/vocos_24khz.onnx`,
        sha256: 'bcb3b970e384161c4d634f0bb9e999ff1c471b34c9bc0b1049a5014065ed3cc0',
        pinSource: 'four public projects that download this URL pin this digest, three with 54,157,409 bytes',
        sizeBytes: 54_157_409,
        path: 'vocos_24khz.onnx',
      },
    ],
  },
  {
    id: 'pocket-tts-int8-en',
    name: 'Pocket TTS (English, int8)',
    description:
      "Zero-shot voice cloning and continuation in English (Kyutai's Pocket TTS, 24 kHz): speaks text in the voice of a " +
      '1-30 s reference recording, from the audio alone (no transcript needed).',
    capability: 'voice_cloning',
    family: 'pocket',
    languages: ['en'],
    licence: "CC-BY-4.0 (Kyutai's model card); the sherpa-onnx archive's README adds an export notice to read before commercial use",
    version: 'sherpa-onnx-pocket-tts-int8-2026-01-26',
    sampleRate: 24_000,
    speedClass: 'medium',
    files: [
      {
        url: `${SHERPA}/tts-models/sherpa-onnx-pocket-tts-int8-2026-01-26.tar.bz2`,
        sha256: '2f3b88823cbbb9bf0b2477ec8ae7b3fec417b3a87b6bb5f256dba66f2ad967cb',
        pinSource: 'nine public projects that download this URL pin this digest, four with 98,336,520 bytes',
        sizeBytes: 98_336_520,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
];
