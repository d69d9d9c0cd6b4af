/**
 * The curated enhancement and support packages (denoisers; VAD, speaker segmentation and embeddings the recognizers
 * use). curated-models.ts has the fields and how pins are sourced.
 */
import type { ModelPackage } from '../model-package.js';
import { WHISPER_V3_LANGUAGES } from './asr-packages.js';
import { SHERPA } from './release-hosts.js';

export const OTHER_PACKAGES: readonly ModelPackage[] = [
  {
    id: 'gtcrn-simple',
    name: 'GTCRN speech denoiser',
    description: 'GTCRN: a tiny neural speech denoiser (16 kHz), run by sherpa-onnx.',
    capability: 'noise_reduction',
    family: 'gtcrn',
    languages: [],
    licence: 'MIT',
    version: 'gtcrn_simple',
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/speech-enhancement-models/gtcrn_simple.onnx`,
        sha256: 'e77603ac0c23dac3227dd2d7135b3a585cbee2679048aecfa886657d3ae1b534',
        pinSource: 'computed here from ../shared/models/gtcrn_simple.onnx, a copy of this very file (same size)',
        sizeBytes: 535_638,
        path: 'gtcrn_simple.onnx',
      },
    ],
  },
  {
    id: 'dpdfnet-baseline',
    name: 'DPDFNet speech denoiser (baseline, 16 kHz)',
    description:
      'DPDFNet: a neural speech denoiser (DeepFilterNet lineage) streamed frame by frame at 16 kHz by sherpa-onnx; ' +
      'stronger than GTCRN on heavy noise, for voice isolation and before speech recognition.',
    capability: 'noise_reduction',
    family: 'dpdfnet',
    languages: [],
    licence: 'Apache-2.0',
    version: 'dpdfnet_baseline',
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/speech-enhancement-models/dpdfnet_baseline.onnx`,
        sha256: null,
        unconfirmed:
          'no release checksum file or public project pins the digest of this asset (searched 2026-11; only the 48 kHz ' +
          'model has published digests); the size is an estimate (about 10 MB)',
        sizeBytes: 10_000_000,
        path: 'dpdfnet_baseline.onnx',
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
    speedClass: 'fast',
    files: [
      {
        url: 'https://raw.githubusercontent.com/snakers4/silero-vad/v5.1.2/src/silero_vad/data/silero_vad.onnx',
        sha256: '2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f',
        pinSource: 'computed here from ../shared/models/silero_vad_v5.onnx, a copy of this very file (same size)',
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
    speedClass: 'fast',
    files: [
      {
        url: 'https://huggingface.co/csukuangfj/sherpa-onnx-pyannote-segmentation-3-0/resolve/main/model.int8.onnx',
        sha256: 'd582f4b4c6b48205de7e0643c57df0df5615a3c176189be3fc461e9d18827b5d',
        pinSource: 'computed here from ../shared/models/pyannote-segmentation-3-0.int8.onnx, a copy of this very file (same size)',
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
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/speaker-recongition-models/nemo_en_titanet_small.onnx`,
        sha256: 'ad4a1802485d8b34c722d2a9d04249662f2ece5d28a7a039063ca22f515a789e',
        pinSource: 'the value public projects verify their downloads of this release asset against (found in their sources, 2026)',
        sizeBytes: 40_257_283,
        path: 'nemo_en_titanet_small.onnx',
      },
    ],
  },
  {
    id: 'punct-ct-transformer-zh-en',
    name: 'CT-Transformer punctuation (English and Chinese, int8)',
    description:
      'Punctuation for recognizers that give none (PocketSphinx, NeMo CTC): adds commas and full stops, and Voxdesk ' +
      'capitalises sentence starts. On by default once installed (the punctuate param).',
    capability: 'support',
    family: 'punctuation',
    languages: ['en', 'zh'],
    licence: 'Apache-2.0',
    version: 'sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8',
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/punctuation-models/sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8.tar.bz2`,
        sha256: 'c0d5aa5f8eeb686032345e180bedf39319dc2e0556781c6264bcadba8328a6e1',
        pinSource: 'two public projects that verify this URL pin this digest, one with 64,717,756 bytes (a third lists the same size)',
        sizeBytes: 64_717_756,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
  {
    id: 'whisper-tiny-language-id',
    name: 'Spoken-language identification (Whisper tiny)',
    description:
      'Finds the language spoken in a recording for recognizers that must be told it (Canary): with language omitted, ' +
      'the first speech is identified and transcribed in that language, and the result reports it. Whisper tiny ' +
      'multilingual, run by sherpa-onnx (99 languages).',
    capability: 'support',
    family: 'language-id',
    // Whisper tiny is a v1/v2-era model: large-v3's hundred languages less Cantonese.
    languages: WHISPER_V3_LANGUAGES.filter((code) => code !== 'yue'),
    licence: 'MIT',
    version: 'sherpa-onnx-whisper-tiny',
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/asr-models/sherpa-onnx-whisper-tiny.tar.bz2`,
        sha256: null,
        unconfirmed:
          'no release checksum file or public project pins the digest of this release asset (searched 2026-11); the ' +
          'size is approximate (about 111 MB)',
        sizeBytes: 111_000_000,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  },
];
