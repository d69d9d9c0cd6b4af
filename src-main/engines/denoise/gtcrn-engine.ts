/** Engine `gtcrn`: the GTCRN speech denoiser through sherpa-onnx; the model file comes in engineConfig.model. */
import { isAbsolute } from 'node:path';
import { JobError } from '../../common/errors.js';
import type { Engine, EngineFactory } from '../engine-types.js';
import { runDenoiseJob } from './denoise-pipeline.js';
import { createGtcrnStream, disposeGtcrn, GTCRN_SAMPLE_RATE } from './gtcrn-processor.js';

/** engineConfig of a GTCRN model (see gtcrnDefinition). */
export interface GtcrnEngineConfig {
  /** Absolute path of the .onnx file (sherpa-onnx resolves relative paths against the cwd). */
  model: string;
  /** Longest input accepted, as the catalogue's limits.max_audio_seconds (read by the pipeline). Default: none. */
  maxAudioSeconds?: number | null;
}

export function readGtcrnConfig(config: Record<string, unknown>): GtcrnEngineConfig {
  const model = config.model;
  if (typeof model !== 'string' || !isAbsolute(model)) {
    throw new JobError('model_unavailable', 'GTCRN model definition has no absolute model path (engineConfig.model)');
  }
  return { model, maxAudioSeconds: typeof config.maxAudioSeconds === 'number' ? config.maxAudioSeconds : null };
}

const createGtcrnEngine: EngineFactory = (): Engine => ({
  run: (task, ctx) => {
    const { model } = readGtcrnConfig(task.engineConfig);
    return runDenoiseJob(task, ctx, { label: 'gtcrn', rate: GTCRN_SAMPLE_RATE, create: async () => createGtcrnStream(model) });
  },
  dispose: disposeGtcrn,
});

export default createGtcrnEngine;
