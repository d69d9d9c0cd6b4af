/** Engine `rnnoise`: RNNoise (WASM) noise suppression; nothing to download. */
import type { Engine, EngineFactory } from '../engine-types.js';
import { runDenoiseJob } from './denoise-pipeline.js';
import { createRNNoiseStream, RNNOISE_SAMPLE_RATE } from './rnnoise-processor.js';

const createRnnoiseEngine: EngineFactory = (): Engine => ({
  run: (task, ctx) => runDenoiseJob(task, ctx, { label: 'rnnoise', rate: RNNOISE_SAMPLE_RATE, create: createRNNoiseStream }),
});

export default createRnnoiseEngine;
