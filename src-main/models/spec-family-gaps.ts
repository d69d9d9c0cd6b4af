/**
 * The spec's model families that no open model runs on this device, each as a catalogue row saying so and why (issue
 * 34: "a catalogue row that says there is none and why"): a client asking the catalogue for a C-v2 or Q-asr model
 * finds a row naming the family, unavailable, with the reason and what to use instead, and a job naming it gets 422
 * model_unavailable with that reason. Families with a curated package are not here (curated/asr-packages.ts).
 */
import { MAX_FILE_BYTES } from '../common/limits.js';
import type { SpecFamily } from '../common/spec-families.js';
import { NO_ENGINE, NO_LIMITS, type ModelDefinition } from '../engines/model-definition.js';

interface Gap {
  specFamily: SpecFamily;
  name: string;
  reason: string;
}

const GAPS: readonly Gap[] = [
  {
    specFamily: 'P-rnnt',
    name: 'Parakeet RNN-T (English)',
    reason:
      'NVIDIA Parakeet RNN-T has no sherpa-onnx export (the engine Voxdesk ships, sherpa-onnx-node 1.13.8, runs NeMo ' +
      'models only from such exports): use parakeet-tdt-0.6b-v2 (P2; English, the same FastConformer encoder with a TDT ' +
      'decoder and word timings from token times) or parakeet-tdt-ctc-110m-en (P-ctc)',
  },
  {
    specFamily: 'C-v2',
    name: 'Canary 1B v2 (25 European languages)',
    reason:
      'NVIDIA Canary 1B v2, the open model of this family, has no sherpa-onnx export, and sherpa-onnx-node 1.13.8 (the ' +
      'engine Voxdesk ships) runs only Canary 180M flash: use canary-180m-flash (C-flash; en, de, es, fr) or ' +
      'parakeet-tdt-0.6b-v3 (P3; the same 25 European languages)',
  },
  {
    specFamily: 'Q-asr',
    name: 'Qwen3-ASR (30 languages, with a prompt)',
    reason:
      'Qwen3-ASR, the open model of this family, is not among the models sherpa-onnx-node 1.13.8 (the engine Voxdesk ' +
      'ships) can load; for many languages on device use whisper-large-v3-turbo (W-turbo), which also detects the language',
  },
];

/** Catalogue id of the row that stands for a spec family without an on-device model. */
export function specFamilyGapId(family: SpecFamily): string {
  return `local-${family.toLowerCase()}`;
}

export function specFamilyGapDefinitions(): ModelDefinition[] {
  return GAPS.map((gap) => ({
    id: specFamilyGapId(gap.specFamily),
    name: `${gap.name} — not on device`,
    description: `The spec's ${gap.specFamily} family. No open model of it runs on this device: ${gap.reason}.`,
    capability: 'asr',
    products: ['speech-to-text'],
    ...NO_ENGINE,
    engineConfig: {},
    languages: [],
    limits: { ...NO_LIMITS, max_file_bytes: MAX_FILE_BYTES },
    paramsSchema: { type: 'object', properties: {}, additionalProperties: false },
    reason: `no ${gap.specFamily} model on device: ${gap.reason}`,
    specFamily: gap.specFamily,
  }));
}
