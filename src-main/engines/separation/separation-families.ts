/**
 * Catalogue fields of the stem-separation families, for the model manager: Spleeter 2 stems (two files, vocals and
 * accompaniment spectrogram estimators) and UVR MDX-Net (one file estimating the vocals; the accompaniment is the
 * mix minus the vocals). Both give exactly two stems here: sherpa-onnx loads only 2-stem models.
 */
import type { ModelLimits } from '../../common/api-types.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';
import type { ModelDefinition } from '../model-definition.js';
import type { SeparationEngineConfig } from './separation-engine.js';
import { separationParamsSchema } from './separation-params.js';

export type SeparationFamily = 'spleeter' | 'uvr';

export interface SeparationPackage {
  id: string;
  family: SeparationFamily;
  /** Role → absolute path: `vocals` and `accompaniment` (Spleeter) or `model` (UVR). */
  files: Record<string, string>;
}

/**
 * Files under the spec's 500 MB upload bound and up to an hour of audio: the engine separates 30 s windows one after
 * another, so length costs time (roughly real time for UVR on a laptop CPU, a fraction of it for Spleeter), not memory.
 */
export const SEPARATION_LIMITS: ModelLimits = { max_file_bytes: MAX_FILE_BYTES, max_audio_seconds: 60 * 60, max_text_chars: null };

export type SeparationFamilyFields = Pick<ModelDefinition, 'engine' | 'engineConfig' | 'paramsSchema' | 'limits' | 'live' | 'acceptsSpeed'>;

export function separationDefinition(pkg: SeparationPackage): SeparationFamilyFields {
  const need = (role: string): string => {
    const file = pkg.files[role];
    if (!file) throw new Error(`package ${pkg.id} (${pkg.family}) lacks its ${role} file`);
    return file;
  };
  const model: SeparationEngineConfig['model'] =
    pkg.family === 'spleeter' ? { kind: 'spleeter', vocals: need('vocals'), accompaniment: need('accompaniment') } : { kind: 'uvr', model: need('model') };
  const config: SeparationEngineConfig = { model, maxAudioSeconds: SEPARATION_LIMITS.max_audio_seconds };
  return {
    engine: 'sherpa-separation',
    engineConfig: { ...config },
    paramsSchema: separationParamsSchema(),
    limits: SEPARATION_LIMITS,
    live: false,
    acceptsSpeed: false,
  };
}
