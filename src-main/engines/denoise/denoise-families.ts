/**
 * Catalogue fields of downloadable denoiser packages, for the model manager. GTCRN is a noise-reduction model (it
 * estimates clean speech under additive noise; it does not dereverberate, declip or extend bandwidth), so its rows
 * are capability noise_reduction and serve voice-isolator and audio-enhancement — no speech_restoration claim.
 */
import { isAbsolute, join } from 'node:path';
import type { ModelDefinition } from '../model-definition.js';
import { denoiseParamsSchema } from './denoise-params.js';
import { DENOISE_LIMITS } from './denoise-limits.js';
import type { GtcrnEngineConfig } from './gtcrn-engine.js';

export interface GtcrnPackage {
  id: string;
  /** The package's folder (absolute). */
  dir: string;
  /** Role → file path, relative to dir or absolute; role `model` is the .onnx file. */
  files: Record<string, string>;
}

export type DenoiseFamilyFields = Pick<ModelDefinition, 'engine' | 'engineConfig' | 'paramsSchema' | 'limits' | 'live' | 'acceptsSpeed'>;

export function gtcrnDefinition(pkg: GtcrnPackage): DenoiseFamilyFields {
  const file = pkg.files.model;
  if (!file) throw new Error(`package ${pkg.id} (gtcrn) lacks its model file`);
  const config: GtcrnEngineConfig = { model: isAbsolute(file) ? file : join(pkg.dir, file), maxAudioSeconds: DENOISE_LIMITS.max_audio_seconds };
  return {
    engine: 'gtcrn',
    engineConfig: { ...config },
    paramsSchema: denoiseParamsSchema(),
    limits: DENOISE_LIMITS,
    live: false,
    acceptsSpeed: false,
  };
}
