/** The built-in eSpeak NG model: nothing to download, every voice the package ships, live-capable. */
import type { JsonSchema, ModelLimits } from '../../common/api-types.js';
import type { ModelDefinition, ModelSource } from '../model-definition.js';
import type { ModelSourceContext } from '../model-sources.js';
import { DEFAULT_ESPEAK_VOICE, ESPEAK_SAMPLE_RATE } from './espeak-synth.js';
import { espeakLanguagePattern, espeakVoiceCatalogue } from './espeak-voices.js';
import { OUTPUT_PARAMS_SCHEMA, outputFormatRules, SPEED_SCHEMA } from './output-params.js';

export const ESPEAK_MODEL_ID = 'espeak-ng';
export const ESPEAK_LIMITS: ModelLimits = { max_file_bytes: null, max_audio_seconds: null, max_text_chars: 5000 };

export function espeakParamsSchema(): JsonSchema {
  const { voices, variants } = espeakVoiceCatalogue();
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      voice: {
        type: 'string',
        enum: voices.map((v) => v.id),
        default: DEFAULT_ESPEAK_VOICE,
        description: 'eSpeak NG voice (one per language or accent).',
        'x-labels': Object.fromEntries(voices.map((v) => [v.id, v.name])),
      },
      language: {
        type: 'string',
        minLength: 2,
        maxLength: 35,
        pattern: espeakLanguagePattern(),
        description:
          'A language some voice speaks (BCP 47, any case, e.g. fr, pt-BR, en-IN; the model lists them in languages). When given it picks the voice and ' +
          'takes precedence over voice: an exact voice id, else the voice that declares the language with the best priority, else the same for the code ' +
          'without its last subtag (en-IN speaks with en).',
      },
      speaker: { type: 'string', enum: variants, description: 'Voice variant (f1–f5, m1–m8, whisper, klatt, …).' },
      speed: SPEED_SCHEMA,
      pitch: { type: 'integer', minimum: 0, maximum: 100, default: 50, description: 'Base pitch, 0–100 (50 is normal).' },
      ...OUTPUT_PARAMS_SCHEMA,
    },
    allOf: [outputFormatRules(ESPEAK_SAMPLE_RATE)],
  };
}

export function espeakModelDefinition(): ModelDefinition {
  return {
    id: ESPEAK_MODEL_ID,
    name: 'eSpeak NG',
    description: 'Formant speech synthesis in about 100 languages, on device, nothing to download (GPL-3.0).',
    capability: 'tts',
    products: ['text-to-speech'],
    provider: 'local',
    engine: 'espeak',
    engineConfig: { maxTextChars: ESPEAK_LIMITS.max_text_chars },
    languages: espeakVoiceCatalogue().languages,
    live: true,
    acceptsSpeed: true,
    limits: ESPEAK_LIMITS,
    paramsSchema: espeakParamsSchema(),
    status: 'available',
    reason: null,
    download: null,
  };
}

export function espeakModelSource(_ctx: ModelSourceContext): ModelSource {
  // The voices are the package's own files, read once: the row never changes while the process runs.
  const rows = [espeakModelDefinition()];
  return { name: 'espeak-ng', list: () => rows, version: () => 0 };
}
