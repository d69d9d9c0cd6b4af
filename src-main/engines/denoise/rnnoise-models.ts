/** The built-in denoiser row: RNNoise runs in WASM with nothing to download, so it is always available. */
import type { ModelDefinition, ModelSource } from '../model-definition.js';
import type { ModelSourceFactory } from '../model-sources.js';
import { denoiseParamsSchema } from './denoise-params.js';
import { DENOISE_LIMITS } from './denoise-limits.js';

export const RNNOISE_MODEL_ID = 'rnnoise';

export function rnnoiseDefinition(): ModelDefinition {
  return {
    id: RNNOISE_MODEL_ID,
    name: 'RNNoise',
    description:
      'RNNoise (Xiph, BSD-3-Clause) noise suppression in WebAssembly: removes steady background noise (fans, hiss, hum, ' +
      'traffic) from speech; built in, nothing to download.',
    capability: 'noise_reduction',
    products: ['voice-isolator', 'audio-enhancement'],
    provider: 'local',
    engine: 'rnnoise',
    engineConfig: { maxAudioSeconds: DENOISE_LIMITS.max_audio_seconds },
    // Works on any language: the catalogue's language filter does not apply to denoisers.
    languages: [],
    live: false,
    acceptsSpeed: false,
    limits: DENOISE_LIMITS,
    paramsSchema: denoiseParamsSchema(),
    status: 'available',
    reason: null,
    download: null,
  };
}

/** Model source of the built-in denoisers (GTCRN rows come from the model manager via gtcrnDefinition). */
export const denoiseModelSource: ModelSourceFactory = (): ModelSource => {
  // Built into the app: the row never changes while the process runs.
  const rows = [rnnoiseDefinition()];
  return { name: 'denoise', list: () => rows, version: () => 0 };
};
