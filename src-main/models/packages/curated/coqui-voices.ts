/**
 * Coqui's character-level VITS voices trained on Common Voice, for the EU languages Piper has no voice for
 * (Bulgarian, Croatian, Estonian, Irish, Lithuanian, Maltese), from sherpa-onnx's tts-models release
 * (`vits-coqui-<code>-cv.tar.bz2`: model.onnx and tokens.txt; the model's metadata says frontend "characters", so
 * sherpa-onnx spells the text letter by letter — no lexicon, no espeak-ng). No checksum is published for these assets
 * and no public project pins them, so each is `unconfirmed`: listed with its language, refused on pull with the reason.
 */
import type { ModelPackage } from '../model-package.js';
import { SHERPA } from './release-hosts.js';

const UNCONFIRMED =
  'sherpa-onnx publishes no checksum file for its tts-models assets and no public project pins this one (searched ' +
  '2026-11); the size is an estimate (Coqui VITS exports are about 60 MB), not measured';

const VOICES: ReadonlyArray<[code: string, language: string]> = [
  ['bg', 'Bulgarian'],
  ['hr', 'Croatian'],
  ['et', 'Estonian'],
  ['ga', 'Irish'],
  ['lt', 'Lithuanian'],
  ['mt', 'Maltese'],
];

export const COQUI_VOICES: readonly ModelPackage[] = VOICES.map(([code, language]) => ({
  id: `coqui-${code}-cv`,
  name: `Coqui VITS ${language} (Common Voice)`,
  description: `Coqui TTS VITS voice, ${language}, one speaker, 22.05 kHz; spells the text letter by letter (character-level model, sherpa-onnx export).`,
  capability: 'tts',
  family: 'vits',
  languages: [code],
  licence: 'Coqui TTS model: see the terms stated in the package (trained on Common Voice, CC0-1.0)',
  version: `vits-coqui-${code}-cv`,
  numSpeakers: 1,
  sampleRate: 22_050,
  speedClass: 'fast',
  files: [
    {
      url: `${SHERPA}/tts-models/vits-coqui-${code}-cv.tar.bz2`,
      sha256: null,
      unconfirmed: UNCONFIRMED,
      sizeBytes: 60_000_000,
      path: '',
      extract: 'tar.bz2',
    },
  ],
}));
