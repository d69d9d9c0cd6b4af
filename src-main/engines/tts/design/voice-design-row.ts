/**
 * The catalogue row of voice design on one installed multi-speaker Kokoro (`<kokoro id>-voice-design`): the same
 * engine and files as the Kokoro's text-to-speech row, product voice-design, and params that describe the voice.
 * The model manager's source adds one beside each available Kokoro whose voices are named in Kokoro's scheme; while
 * one is available the row explaining that no on-device engine designs voices is hidden (ModelDefinition.replaces).
 */
import type { JsonSchema } from '../../../common/api-types.js';
import { VOICE_ACCENTS, VOICE_AGES, VOICE_GENDERS, VOICE_PACES, VOICE_PITCHES } from '../../../common/voice-description.js';
import type { ModelDefinition } from '../../model-definition.js';
import { OUTPUT_PARAMS_SCHEMA, outputFormatRules } from '../output-params.js';
import type { SherpaTtsEngineConfig } from '../tts-families.js';
import { MAX_PITCH_SEMITONES } from './voice-recipe.js';
import { unservedModelId } from '../../products/unavailable-products.js';

export const VOICE_DESIGN_SUFFIX = '-voice-design';

/** What the method is and what it cannot do (the row's description; docs/voices.md says more). */
export const VOICE_DESIGN_METHOD =
  'Designs a new voice by blending up to three of this Kokoro model\'s own voices (their style vectors, weighted) chosen by the ' +
  'described gender and accent, with the pace as its speaking rate and the pitch shifted after synthesis (±4 semitones). ' +
  'It cannot make a voice unlike the installed ones: no age (the voices are not labelled by age; age only nudges pitch and pace), ' +
  'no emotion, timbre or accent the model lacks; a pitch shift also moves the formants.';

export const VOICE_DESIGN_PARAMS: Record<string, JsonSchema> = {
  gender: { type: 'string', enum: [...VOICE_GENDERS], description: 'female or male (the voices\' labels).' },
  age: { type: 'string', enum: [...VOICE_AGES], description: 'child, young, adult or old: the voices are not labelled by age, so it shifts pitch and pace only.' },
  accent: { type: 'string', enum: [...VOICE_ACCENTS], description: 'The accent (language) of the voices blended; english is American or British.' },
  pitch: {
    anyOf: [{ type: 'string', enum: [...VOICE_PITCHES] }, { type: 'number', minimum: -MAX_PITCH_SEMITONES, maximum: MAX_PITCH_SEMITONES }],
    description: 'low (−2 semitones), medium, high (+2), or a shift in semitones, −4…4; applied after synthesis.',
  },
  pace: {
    anyOf: [{ type: 'string', enum: [...VOICE_PACES] }, { type: 'number', minimum: 0.5, maximum: 2 }],
    description: 'slow (0.85), normal (1), fast (1.15), or a speaking rate 0.5…2.',
  },
  seed: { type: 'integer', minimum: 0, maximum: 4294967295, default: 0, description: 'Another seed, another voice for the same description; the same seed, the same voice.' },
  language: { type: 'string', enum: ['en', 'de', 'es'], default: 'en', description: 'The language the description is written in (its keyword rules: docs/voices.md).' },
};

/** Whether a row runs a Kokoro whose voices can be designed from (its text-to-speech row or its voice-design row). */
export function designableKokoro(def: ModelDefinition): SherpaTtsEngineConfig | null {
  if (def.engine !== 'sherpa-tts') return null;
  const config = def.engineConfig as Partial<SherpaTtsEngineConfig>;
  if (config.family !== 'kokoro' || (config.numSpeakers ?? 1) < 2 || !config.speakerNames?.some((n) => /^[a-z][fm]_/.test(n))) return null;
  return config as SherpaTtsEngineConfig;
}

/** The voice-design row of an available designable Kokoro, or null. */
export function voiceDesignDefinition(kokoro: ModelDefinition): ModelDefinition | null {
  const config = designableKokoro(kokoro);
  if (!config || kokoro.capability !== 'tts' || kokoro.status !== 'available') return null;
  return {
    id: `${kokoro.id}${VOICE_DESIGN_SUFFIX}`,
    name: `Voice design (${kokoro.name})`,
    description: VOICE_DESIGN_METHOD,
    capability: 'voice_design',
    products: ['voice-design'],
    provider: 'local',
    engine: 'sherpa-tts',
    engineConfig: { ...kokoro.engineConfig, designFrom: kokoro.id },
    languages: [...kokoro.languages],
    live: false,
    acceptsSpeed: false,
    limits: kokoro.limits,
    paramsSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { ...VOICE_DESIGN_PARAMS, ...OUTPUT_PARAMS_SCHEMA },
      allOf: [outputFormatRules(config.sampleRate)],
    },
    status: 'available',
    reason: null,
    download: null,
    replaces: unservedModelId('voice-design'),
  };
}
