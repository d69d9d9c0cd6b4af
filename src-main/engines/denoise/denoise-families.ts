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
import type { DpdfnetEngineConfig } from './dpdfnet-engine.js';
import { onnxMetadataOrEmpty } from '../onnx-metadata.js';

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

/**
 * The DPDFNet streaming exports sherpa-onnx-node 1.13.8's OnlineSpeechDenoiser runs (the profiles its library names);
 * it ends the process on any other profile, so such a model is refused here with the reason instead.
 */
export const DPDFNET_STREAMING_PROFILES = ['dpdfnet_16khz', 'dpdfnet2_8khz', 'dpdfnet8_8khz', 'dpdfnet2_48khz_hr', 'dpdfnet8_48khz_hr'] as const;

/** Catalogue fields of a DPDFNet package; reads the installed model's metadata (profile, sample rate). */
export function dpdfnetDefinition(pkg: GtcrnPackage & { installed?: boolean }): DenoiseFamilyFields {
  const file = pkg.files.model;
  if (!file) throw new Error(`package ${pkg.id} (dpdfnet) lacks its model file`);
  const model = isAbsolute(file) ? file : join(pkg.dir, file);
  let sampleRate = 16_000;
  if (pkg.installed !== false) {
    const meta = onnxMetadataOrEmpty(model);
    if (meta.model_type !== 'dpdfnet') throw new Error(`${file} is not a DPDFNet export (model_type ${JSON.stringify(meta.model_type ?? null)}, expected "dpdfnet")`);
    if (!(DPDFNET_STREAMING_PROFILES as readonly string[]).includes(meta.profile ?? '')) {
      throw new Error(`${file} has profile ${JSON.stringify(meta.profile ?? null)}; sherpa-onnx streams only the DPDFNet exports ${DPDFNET_STREAMING_PROFILES.join(', ')}`);
    }
    sampleRate = Number(meta.sample_rate);
    if (!(sampleRate > 0)) throw new Error(`${file} has no sample_rate in its metadata`);
  }
  const config: DpdfnetEngineConfig = { model, sampleRate, maxAudioSeconds: DENOISE_LIMITS.max_audio_seconds };
  return {
    engine: 'dpdfnet',
    engineConfig: { ...config },
    paramsSchema: denoiseParamsSchema(),
    limits: DENOISE_LIMITS,
    live: false,
    acceptsSpeed: false,
  };
}
