/**
 * The tiny random-weight NeMo CTC model of ../shared/models/tiny as a catalogue row (`tiny-ctc`) with Silero VAD,
 * for service tests of transcriptions: real loading, VAD segmentation and decoding in worker processes, fast.
 */
import { join } from 'node:path';
import { asrFamilyDefinition } from '../../src-main/engines/asr/asr-families.js';
import type { ModelDefinition, ModelSource } from '../../src-main/engines/model-definition.js';
import { SHARED } from './system.js';

export const TINY_CTC = 'tiny-ctc';

export function tinyCtcDefinition(): ModelDefinition {
  return {
    id: TINY_CTC,
    name: 'Tiny NeMo CTC (random weights)',
    description: 'test model',
    capability: 'asr',
    products: ['speech-to-text'],
    provider: 'local',
    status: 'available',
    reason: null,
    download: null,
    ...asrFamilyDefinition('nemo-ctc', {
      id: TINY_CTC,
      dir: join(SHARED, 'models/tiny/tiny-nemo-ctc'),
      languages: ['en'],
      files: { model: 'model.onnx', tokens: 'tokens.txt' },
      support: { sileroVad: join(SHARED, 'models/silero_vad_v5.onnx') },
    }),
  };
}

export const tinyCtcSource = (): ModelSource => ({ name: 'test-tiny-ctc', list: () => [tinyCtcDefinition()] });
