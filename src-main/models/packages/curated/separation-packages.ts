/**
 * The curated stem-separation packages (engines/separation): Deezer's Spleeter 2 stems as sherpa-onnx exports it
 * (Hugging Face, pinned to a revision so the bytes cannot move under the pin), and UVR MDX-Net as sherpa-onnx's
 * release re-publishes it with the metadata its C library reads. curated-models.ts has the fields and how pins are
 * sourced.
 */
import type { ModelPackage } from '../model-package.js';
import { SHERPA } from './release-hosts.js';

const SPLEETER_FP16 = 'https://huggingface.co/csukuangfj/sherpa-onnx-spleeter-2stems-fp16/resolve/93ba771920ade509f8cbd6825b1a90856c797e08';
const SPLEETER = 'https://huggingface.co/csukuangfj/sherpa-onnx-spleeter-2stems/resolve/7001ba316a615cacddb3f9ef3ec416661a277e26';

export const SEPARATION_PACKAGES: readonly ModelPackage[] = [
  {
    id: 'spleeter-2stems-fp16',
    name: 'Spleeter 2 stems (fp16)',
    description:
      'Splits a song into vocals and accompaniment (Deezer Spleeter, 44.1 kHz, sherpa-onnx fp16 export). Two stems only: ' +
      'sherpa-onnx does not run the 4- and 5-stem models.',
    capability: 'stem_separation',
    family: 'spleeter',
    languages: [],
    licence: 'MIT',
    version: 'sherpa-onnx-spleeter-2stems-fp16@93ba7719',
    speedClass: 'medium',
    files: [
      {
        url: `${SPLEETER_FP16}/vocals.fp16.onnx`,
        sha256: '24cef84aedcd1fe87c0b743ef3370ad34dc1fabf6c9014d6128a75a538c7b668',
        pinSource: "a public project's provenance audit of this Hugging Face revision lists these bytes and this digest (2026)",
        sizeBytes: 19_681_017,
        path: 'vocals.fp16.onnx',
      },
      {
        url: `${SPLEETER_FP16}/accompaniment.fp16.onnx`,
        sha256: 'd14cea55793cc531a5875f5f4da08207d1c5ab9292e8e0099a104eecb014fcc0',
        pinSource: "a public project's provenance audit of this Hugging Face revision lists these bytes and this digest (2026)",
        sizeBytes: 19_681_024,
        path: 'accompaniment.fp16.onnx',
      },
    ],
  },
  {
    id: 'spleeter-2stems',
    name: 'Spleeter 2 stems',
    description: 'Splits a song into vocals and accompaniment (Deezer Spleeter, 44.1 kHz, sherpa-onnx fp32 export): the full-precision twin of the fp16 package.',
    capability: 'stem_separation',
    family: 'spleeter',
    languages: [],
    licence: 'MIT',
    version: 'sherpa-onnx-spleeter-2stems@7001ba31',
    speedClass: 'medium',
    files: [
      {
        url: `${SPLEETER}/vocals.onnx`,
        sha256: 'bdc16ab6bf6117ddd4842c19e80e40e2be188fc555295064d424616b0224ac97',
        pinSource: 'a public project that downloads this Hugging Face revision verifies this size and digest (its manifest, 2026)',
        sizeBytes: 39_318_336,
        path: 'vocals.onnx',
      },
      {
        url: `${SPLEETER}/accompaniment.onnx`,
        sha256: '671ace17acd3720674a2bc14de32ac6292453dec20d9eb0ba4255d4ad8e3d8c0',
        pinSource: 'a public project that downloads this Hugging Face revision verifies this size and digest (its manifest, 2026)',
        sizeBytes: 39_318_343,
        path: 'accompaniment.onnx',
      },
    ],
  },
  {
    id: 'uvr-mdx-net-voc-ft',
    name: 'UVR MDX-Net Voc FT',
    description:
      'Splits a song into vocals and accompaniment (Ultimate Vocal Remover MDX-Net, vocals model; the accompaniment is the mix ' +
      'minus the vocals). Slower than Spleeter, usually cleaner vocals.',
    capability: 'stem_separation',
    family: 'uvr',
    languages: [],
    licence: 'MIT',
    version: 'source-separation-models/UVR-MDX-NET-Voc_FT',
    speedClass: 'slow',
    files: [
      {
        url: `${SHERPA}/source-separation-models/UVR-MDX-NET-Voc_FT.onnx`,
        sha256: null,
        unconfirmed:
          "sherpa-onnx re-publishes this file with its own metadata added, so the upstream model's digest does not apply, and no " +
          'published source lists the digest of the re-published file; the size is approximate (about 67 MB)',
        sizeBytes: 67_000_000,
        path: 'UVR-MDX-NET-Voc_FT.onnx',
      },
    ],
  },
];
