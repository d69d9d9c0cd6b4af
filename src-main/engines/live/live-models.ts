/**
 * Which speech-to-text models can run live on this device, and how: streaming transducers through sherpa-onnx's
 * OnlineRecognizer; every offline model (sherpa-onnx families, PocketSphinx) through Silero VAD endpointing, which
 * needs the Silero VAD support model installed (its path is in the model's engineConfig as `vadModel`).
 */
import { ApiError } from '../../common/errors.js';
import { STREAMING_FAMILIES } from '../asr/asr-families.js';
import type { PocketsphinxInstall } from '../asr/pocketsphinx-install.js';
import { parseEngineConfig } from '../asr/sherpa-recognizers.js';
import type { ModelDefinition } from '../model-definition.js';
import type { LiveModelConfig } from './live-recognition-types.js';

/** Why a model cannot run live, or null when it can (the catalogue's `live` flag says the same). */
export function liveUnavailableReason(model: ModelDefinition): string | null {
  if (model.capability !== 'asr') return `model ${model.id} is not a speech-to-text model`;
  if (model.engine === 'sherpa-asr') {
    const family = String(model.engineConfig.family ?? '');
    if ((STREAMING_FAMILIES as readonly string[]).includes(family)) return null;
    return typeof model.engineConfig.vadModel === 'string' ? null : vadMissing(model.id);
  }
  if (model.engine === 'pocketsphinx') return typeof model.engineConfig.vadModel === 'string' ? null : vadMissing(model.id);
  return `model ${model.id} cannot recognise live speech on this device`;
}

function vadMissing(id: string): string {
  return `live dictation with ${id} needs the Silero VAD model to find where utterances end: voxdesk models pull silero-vad-v5`;
}

/** How the recognizer child runs the model; throws ApiError model_unavailable when it cannot run live. */
export function liveModelConfig(model: ModelDefinition): LiveModelConfig {
  const reason = liveUnavailableReason(model);
  if (reason) throw new ApiError('model_unavailable', reason);
  const vadModel = model.engineConfig.vadModel as string;
  if (model.engine === 'pocketsphinx') {
    const { program, hmm, lm, dict } = model.engineConfig as unknown as PocketsphinxInstall;
    return { kind: 'pocketsphinx', install: { program, hmm, lm, dict }, vadModel };
  }
  let config;
  try {
    config = parseEngineConfig(model.engineConfig);
  } catch (error) {
    throw new ApiError('model_unavailable', (error as Error).message);
  }
  return STREAMING_FAMILIES.includes(config.family) ? { kind: 'sherpa-online', config } : { kind: 'sherpa-offline', config, vadModel };
}
