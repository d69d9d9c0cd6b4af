/**
 * The voices of a text-to-speech model as named choices, and the params each one sets: what the OpenAI-compatible
 * speech route's `voice` (an OpenAI name or the model's own voice id) becomes. Everything is read from the model's
 * params schema, so a hosted model is treated like the same model on device: eSpeak NG-style models (a `voice` enum
 * with `en-us` and a `speaker` enum of variants) take voice ids with an optional variant (`en-gb-x-rp+f4`, eSpeak's
 * own notation); neural models take their speakers (`0`…`n-1`, and Kokoro v0.19's names); other models their
 * `voice` enum. Each OpenAI voice gets a distinct default voice where the model has enough of them.
 */
import { OPENAI_VOICES, type OpenAiVoice } from '../../common/openai-names.js';
import type { ModelDefinition } from '../model-definition.js';
import { KOKORO_V019_SPEAKERS } from './kokoro-voices.js';

export interface TtsVoice {
  /** What a client sends as `voice`. */
  id: string;
  name: string;
  /** The language the voice speaks, when the model says (a multilingual Kokoro's voices). */
  language?: string;
  /** The model's params this voice sets. */
  params: Record<string, unknown>;
}

/** eSpeak NG's voice per OpenAI voice: English accents and variants, each distinct. */
const ESPEAK_DEFAULTS: Record<OpenAiVoice, string> = {
  alloy: 'en-us',
  ash: 'en-us+m3',
  ballad: 'en-gb-x-rp+m2',
  coral: 'en-us+f3',
  echo: 'en-us+m1',
  fable: 'en+m4',
  nova: 'en-us+f2',
  onyx: 'en-us+m7',
  sage: 'en-gb-x-rp+f4',
  shimmer: 'en-us+f5',
  verse: 'en-029+m6',
  marin: 'en-us+f1',
  cedar: 'en-gb-scotland+m5',
};

/** Kokoro speaker per OpenAI voice: the first eleven distinct. */
const KOKORO_DEFAULTS: Record<OpenAiVoice, number> = {
  alloy: 0, ash: 5, ballad: 7, coral: 1, echo: 6, fable: 9, nova: 2, onyx: 10, sage: 3, shimmer: 4, verse: 8, marin: 1, cedar: 5,
};
/** English variants offered for each English eSpeak voice. */
const ESPEAK_CHOICE_VARIANTS = ['f1', 'f2', 'f3', 'f4', 'f5', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8'];

type Property = { type?: string; maximum?: number; enum?: unknown[]; 'x-labels'?: Record<string, string>; 'x-languages'?: Record<string, string> };

function property(def: ModelDefinition, name: string): Property | undefined {
  return (def.paramsSchema.properties as Record<string, Property> | undefined)?.[name];
}

function strings(values: unknown[] | undefined): string[] | null {
  return values?.every((v) => typeof v === 'string') ? (values as string[]) : null;
}

interface EspeakStyle {
  voices: string[];
  variants: string[];
  labels: Record<string, string>;
}

/** eSpeak NG's voices as its schema lists them (on device or hosted), or null for another kind of model. */
function espeakStyle(def: ModelDefinition): EspeakStyle | null {
  const voice = property(def, 'voice');
  const voices = strings(voice?.enum);
  const variants = strings(property(def, 'speaker')?.enum);
  if (!voices?.includes('en-us') || !variants) return null;
  return { voices, variants, labels: voice?.['x-labels'] ?? {} };
}

function espeakVoice(style: EspeakStyle, id: string): TtsVoice | undefined {
  const [voiceId, variant, extra] = id.toLowerCase().split('+');
  if (extra !== undefined || !voiceId || !style.voices.includes(voiceId)) return undefined;
  const name = style.labels[voiceId] ?? voiceId;
  if (variant === undefined) return { id: voiceId, name, params: { voice: voiceId } };
  const named = style.variants.find((v) => v.toLowerCase() === variant);
  if (!named) return undefined;
  return { id: `${voiceId}+${named}`, name: `${name}, ${named}`, params: { voice: voiceId, speaker: named } };
}

interface SpeakerModel {
  count: number;
  names: string[] | null;
  /** Labels by speaker id (name and language), when the schema gives them. */
  labels: Record<string, string> | null;
  languages: Record<string, string> | null;
}

function speakersOf(def: ModelDefinition): SpeakerModel | null {
  const speaker = property(def, 'speaker');
  if (!speaker) return def.engine === 'sherpa-tts' ? { count: 1, names: null, labels: null, languages: null } : null;
  if (speaker.type !== 'integer' || typeof speaker.maximum !== 'number') return null;
  const count = speaker.maximum + 1;
  const labels = speaker['x-labels'] ?? null;
  const languages = speaker['x-languages'] ?? null;
  // Named speakers (Kokoro v1.0, Kitten): the label's first word is the voice's id.
  const named = labels ? Array.from({ length: count }, (_, i) => labels[String(i)]?.split(' ')[0] ?? String(i)) : null;
  const family = (def.engineConfig as { family?: unknown }).family;
  const v019 = family === 'kokoro' && count === KOKORO_V019_SPEAKERS.length ? [...KOKORO_V019_SPEAKERS] : null;
  return { count, names: named ?? v019, labels, languages };
}


/** Every voice a client may name for this model (for the Settings page). */
export function modelVoices(def: ModelDefinition): TtsVoice[] {
  const espeak = espeakStyle(def);
  if (espeak) {
    const english = espeak.voices.filter((v) => v === 'en' || v.startsWith('en-'));
    return [
      ...espeak.voices.map((v) => espeakVoice(espeak, v)!),
      ...english.flatMap((v) => ESPEAK_CHOICE_VARIANTS.map((variant) => espeakVoice(espeak, `${v}+${variant}`)).filter((x): x is TtsVoice => !!x)),
    ];
  }
  const speakers = speakersOf(def);
  if (speakers) {
    return Array.from({ length: speakers.count }, (_, i) => ({
      id: speakers.names?.[i] ?? String(i),
      name: speakers.labels?.[String(i)] ? `${speakers.labels[String(i)]}, speaker ${i}` : speakers.names ? `${speakers.names[i]} (speaker ${i})` : `Speaker ${i}`,
      ...(speakers.languages?.[String(i)] ? { language: speakers.languages[String(i)] } : {}),
      params: speakers.count > 1 ? { speaker: i } : {},
    }));
  }
  const ids = strings(property(def, 'voice')?.enum);
  if (ids) return ids.map((id) => ({ id, name: id, params: { voice: id } }));
  return [{ id: 'default', name: 'The model’s voice', params: {} }];
}

/** The model's voice with this id (its own ids; speakers also by number), or undefined. */
export function findModelVoice(def: ModelDefinition, id: string): TtsVoice | undefined {
  const espeak = espeakStyle(def);
  if (espeak) return espeakVoice(espeak, id);
  const voices = modelVoices(def);
  return voices.find((v) => v.id === id) ?? (/^\d+$/.test(id) ? voices[Number(id)] : undefined);
}

/** The voice an OpenAI voice name speaks with by default on this model. */
export function defaultVoiceFor(def: ModelDefinition, name: OpenAiVoice): TtsVoice {
  const espeak = espeakStyle(def);
  const preset = espeak && espeakVoice(espeak, ESPEAK_DEFAULTS[name]);
  if (preset) return preset;
  const voices = modelVoices(def);
  // Kokoro v1.0 has voices named after OpenAI's (af_alloy, am_echo, bm_fable, af_nova, am_onyx).
  const namesake = voices.find((v) => v.id.endsWith(`_${name}`));
  if (namesake) return namesake;
  const speakers = speakersOf(def);
  const index = speakers?.names ? KOKORO_DEFAULTS[name] : OPENAI_VOICES.indexOf(name);
  return voices[index % voices.length]!;
}
