/**
 * A voice-design request becomes a designed voice before any job exists (docs/voices.md): its description is read
 * by the keyword rules of the `language` param (common/voice-description.ts), combined with the attribute params,
 * and the recipe is chosen from the model's voices (engines/tts/design/voice-recipe.ts). What cannot be designed is
 * a 400 here, so nothing is queued or charged: nothing described, attributes that contradict each other, an accent or
 * gender none of the model's voices has.
 */
import { ApiError } from '../../common/errors.js';
import {
  combineAttributes,
  descriptionLanguage,
  hasAttributes,
  readDescription,
  VOICE_ATTRIBUTES,
  type VoiceAttributes,
} from '../../common/voice-description.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { designRecipe, unmetVoice, type VoiceRecipe } from '../../engines/tts/design/voice-recipe.js';
import type { SherpaTtsEngineConfig } from '../../engines/tts/tts-families.js';

export interface DesignedVoice {
  recipe: VoiceRecipe;
  unknownWords: string[];
}

/** The attributes among validated params (the params schema has checked their values). */
function attributeParams(params: Record<string, unknown>): VoiceAttributes {
  const out: Record<string, unknown> = {};
  for (const attribute of VOICE_ATTRIBUTES) if (params[attribute] !== undefined) out[attribute] = params[attribute];
  return out as VoiceAttributes;
}

/** `where`: the request field the description came from, for messages (`description`, `items[2].description`). */
export function designVoice(def: ModelDefinition, description: string | null, params: Record<string, unknown>, where = 'description'): DesignedVoice {
  const read = readDescription(description ?? '', descriptionLanguage(typeof params.language === 'string' ? params.language : null));
  const { attributes, contradictions } = combineAttributes(attributeParams(params), read);
  if (contradictions.length > 0) {
    throw new ApiError('invalid_params', `the voice asked for contradicts itself (${contradictions.join('; ')}): ask for one of each`, { param: where });
  }
  if (!hasAttributes(attributes)) {
    const unknown = read.unknownWords.length > 0 ? ` (no keyword rule knows ${read.unknownWords.map((w) => `"${w}"`).join(', ')})` : '';
    throw new ApiError(
      'invalid_request',
      `describe the voice: a ${where} naming its gender, age, accent, pitch or pace${unknown}, and/or those params (e.g. {"description": "a calm low female British voice"} or {"params": {"gender": "female"}}); docs/voices.md lists the words understood`,
      { param: where },
    );
  }
  const config = def.engineConfig as Partial<SherpaTtsEngineConfig> & { designFrom?: string };
  const model = config.designFrom ?? def.id;
  const unmet = unmetVoice(model, config.speakerNames ?? [], attributes);
  if (unmet !== null) throw new ApiError('invalid_params', unmet, { param: where });
  const seed = typeof params.seed === 'number' ? params.seed : 0;
  return { recipe: designRecipe(model, config.speakerNames ?? [], attributes, seed, !!config.speakerLanguages), unknownWords: read.unknownWords };
}
