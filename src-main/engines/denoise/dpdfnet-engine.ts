/**
 * Engine `dpdfnet`: the DPDFNet speech denoiser (Apache-2.0, its streaming exports) through sherpa-onnx's
 * OnlineSpeechDenoiser, the third enhancement model next to RNNoise and GTCRN. It runs at the model's own rate (16 kHz
 * for dpdfnet_16khz, the one curated), told in engineConfig, through the same streaming stage as GTCRN.
 */
import { isAbsolute } from 'node:path';
import { JobError } from '../../common/errors.js';
import type { Engine, EngineFactory } from '../engine-types.js';
import { runDenoiseJob } from './denoise-pipeline.js';
import { createSherpaDenoiserStream, disposeGtcrn } from './gtcrn-processor.js';

/** engineConfig of a DPDFNet model (see dpdfnetDefinition). */
export interface DpdfnetEngineConfig {
  /** Absolute path of the .onnx file. */
  model: string;
  /** The model's sample rate (its metadata's sample_rate). */
  sampleRate: number;
  maxAudioSeconds?: number | null;
}

export function readDpdfnetConfig(config: Record<string, unknown>): DpdfnetEngineConfig {
  const { model, sampleRate } = config;
  if (typeof model !== 'string' || !isAbsolute(model) || typeof sampleRate !== 'number') {
    throw new JobError('model_unavailable', 'DPDFNet model definition has no absolute model path or sample rate (engineConfig)');
  }
  return { model, sampleRate, maxAudioSeconds: typeof config.maxAudioSeconds === 'number' ? config.maxAudioSeconds : null };
}

const createDpdfnetEngine: EngineFactory = (): Engine => ({
  run: (task, ctx) => {
    const { model, sampleRate } = readDpdfnetConfig(task.engineConfig);
    return runDenoiseJob(task, ctx, { label: 'dpdfnet', rate: sampleRate, create: async () => createSherpaDenoiserStream('dpdfnet', model, sampleRate) });
  },
  dispose: disposeGtcrn,
});

export default createDpdfnetEngine;
