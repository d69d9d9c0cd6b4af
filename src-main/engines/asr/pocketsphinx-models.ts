/** The catalogue row of the PocketSphinx engine: available only when Debian's program and model are installed. */
import type { ModelSourceContext } from '../model-sources.js';
import type { ModelDefinition, ModelSource } from '../model-definition.js';
import { NO_LIMITS } from '../model-definition.js';
import { findPocketsphinx, POCKETSPHINX_MISSING } from './pocketsphinx-install.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';

export const POCKETSPHINX_MODEL_ID = 'pocketsphinx-en-us';

/** Params the PocketSphinx engine honours (spec defaults: verbose_json, word timings). */
export const POCKETSPHINX_PARAMS_SCHEMA = {
  type: 'object',
  properties: {
    response_format: {
      type: 'string',
      enum: ['json', 'verbose_json'],
      default: 'verbose_json',
      description: 'json: text only; verbose_json: also language, duration, segments and words.',
    },
    timestamp_granularity: {
      type: 'string',
      enum: ['word', 'segment', 'none'],
      default: 'word',
      description: 'Timings in verbose_json.',
    },
    language: { type: 'string', enum: ['auto', 'en'], default: 'auto', description: 'English only.' },
  },
  additionalProperties: false,
} as const;

/** `vadModel`: the Silero VAD model's path when installed; with it the model can run live (VAD endpointing). */
export function pocketsphinxDefinition(vadModel: string | null = null): ModelDefinition {
  const install = findPocketsphinx();
  return {
    id: POCKETSPHINX_MODEL_ID,
    name: 'PocketSphinx (US English)',
    description:
      'CMU PocketSphinx from the system packages: English only, word timings, fast on any CPU but inaccurate ' +
      '(about 50% word error rate on read speech). Recognises the whole recording as one stream.',
    capability: 'asr',
    products: ['speech-to-text'],
    provider: 'local',
    engine: 'pocketsphinx',
    engineConfig: install ? { ...install, ...(vadModel ? { vadModel } : {}) } : {},
    languages: ['en'],
    live: install !== null && vadModel !== null,
    acceptsSpeed: false,
    limits: { ...NO_LIMITS, max_file_bytes: MAX_FILE_BYTES },
    paramsSchema: structuredClone(POCKETSPHINX_PARAMS_SCHEMA) as unknown as ModelDefinition['paramsSchema'],
    status: install ? 'available' : 'unavailable',
    reason: install ? null : POCKETSPHINX_MISSING,
    download: null,
  };
}

export function pocketsphinxModelSource(ctx: ModelSourceContext): ModelSource {
  return { name: 'pocketsphinx', list: () => [pocketsphinxDefinition(ctx.vadModel?.() ?? null)] };
}
