/**
 * Which of this service's models answer an OpenAI-compatible request. `model` may be a catalogue id, or one of
 * OpenAI's names (whisper-1, gpt-4o-transcribe, tts-1, …) which map to the model the person chose in Settings
 * (`GET/PUT /v1/settings/openai`) or, when they chose none or it is gone, the best available one of the kind.
 * `voice` may be an OpenAI voice (alloy … cedar: a distinct voice of the speech model, changeable per model) or the
 * model's own voice id. The choices are stored in the settings table under one key.
 */
import type { CatalogueRecord } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import {
  DEFAULT_OPENAI_SETTINGS,
  OPENAI_SPEECH_MODELS,
  OPENAI_TRANSCRIPTION_MODELS,
  OPENAI_VOICES,
  isOpenAiVoice,
  type ModelChoice,
  type OpenAiModelKind,
  type OpenAiSettings,
  type OpenAiSettingsView,
  type OpenAiVoice,
} from '../../common/openai-names.js';
import type { Product } from '../../common/products.js';
import { availableOutputFormats } from '../../engines/audio/stream-encoder.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { defaultVoiceFor, findModelVoice, modelVoices, type TtsVoice } from '../../engines/tts/tts-voices.js';
import type { AsyncSettingsRepo } from '../../store/store.js';
import type { Catalogue } from '../catalogue/catalogue.js';

/** Settings key of the stored choices. */
export const OPENAI_SETTINGS_KEY = 'openai.compat';

/**
 * Automatic choices, best first (on-device catalogue ids); models not listed come after these, in catalogue order.
 * Translation prefers models that translate (Whisper); an English-only recogniser also qualifies (its transcript is
 * already English).
 */
export const PREFERRED_MODELS: Record<OpenAiModelKind, readonly string[]> = {
  transcription: ['parakeet-tdt-0.6b-v2', 'parakeet-tdt-0.6b-v3', 'whisper-small', 'sense-voice-2024-07-17', 'whisper-tiny-en', 'moonshine-tiny-en', 'pocketsphinx-en-us'],
  translation: ['whisper-small'],
  speech: ['kokoro-en-v0_19', 'piper-en-us-lessac-medium', 'espeak-ng'],
};

const PRODUCT_OF: Record<OpenAiModelKind, Product> = { transcription: 'speech-to-text', translation: 'speech-to-text', speech: 'text-to-speech' };

type SchemaProperties = Record<string, { enum?: unknown[] } | undefined>;

function properties(def: Pick<ModelDefinition, 'paramsSchema'>): SchemaProperties {
  return (def.paramsSchema.properties as SchemaProperties | undefined) ?? {};
}

/** What a recogniser can do, read from its params schema (so hosted models are judged the same way). */
export function recognizerAbilities(def: Pick<ModelDefinition, 'paramsSchema' | 'languages'>) {
  const props = properties(def);
  return {
    words: props.timestamp_granularity?.enum?.includes('word') ?? false,
    translate: props.task?.enum?.includes('translate') ?? false,
    /** Codes the language param accepts; null = the model takes no language (it knows `def.languages`). */
    languages: props.language ? (props.language.enum?.filter((l): l is string => typeof l === 'string' && l !== 'auto') ?? def.languages) : null,
    englishOnly: def.languages.length === 1 && def.languages[0] === 'en',
    // Declared in every on-device schema; only `enum: [false]` when the speaker models are missing.
    diarization: 'speaker_diarization' in props && !(props.speaker_diarization?.enum && !props.speaker_diarization.enum.includes(true)),
  };
}

function usable(def: ModelDefinition): boolean {
  return def.status === 'available' || def.downloading === true;
}

function fits(kind: OpenAiModelKind, def: ModelDefinition): boolean {
  if (!def.products.includes(PRODUCT_OF[kind])) return false;
  if (kind !== 'translation') return true;
  const abilities = recognizerAbilities(def);
  return abilities.translate || abilities.englishOnly;
}

function choice(def: ModelDefinition): ModelChoice {
  return { id: def.id, name: def.name };
}

export class OpenAiModels {
  /**
   * @param lookElsewhere looks again for models installed by another process (another node of a cluster, or
   *   `voxdesk models pull` beside the service): called only when a request names a model this node does not know
   *   or finds no model of the kind, so a model installed a moment ago answers on the first request that names it.
   */
  constructor(
    private readonly catalogue: Catalogue,
    private readonly settings: AsyncSettingsRepo,
    private readonly lookElsewhere: () => Promise<unknown> = async () => undefined,
  ) {}

  /** The stored choices (read from the store each time: another node of a cluster may have changed them). */
  async read(): Promise<OpenAiSettings> {
    const stored = (await this.settings.get<Partial<OpenAiSettings>>(OPENAI_SETTINGS_KEY)) ?? {};
    return { ...DEFAULT_OPENAI_SETTINGS, ...stored, voices: { ...(stored.voices ?? {}) } };
  }

  /** Models of a kind that could answer now, best first. */
  candidates(kind: OpenAiModelKind): ModelDefinition[] {
    const defs = this.catalogue.definitions().filter((d) => usable(d) && fits(kind, d));
    const rank = (d: ModelDefinition): number => {
      const i = PREFERRED_MODELS[kind].indexOf(d.id);
      if (i >= 0) return i;
      // Translation: models that translate come before English-only recognisers.
      if (kind === 'translation') {
        const known = PREFERRED_MODELS.transcription.indexOf(d.id);
        return recognizerAbilities(d).translate ? 100 : 200 + (known >= 0 ? known : 500);
      }
      return 1000;
    };
    return defs.map((d, i) => ({ d, i })).sort((a, b) => rank(a.d) - rank(b.d) || a.i - b.i).map(({ d }) => d);
  }

  /** The chosen model of a kind if it can still answer, else the best available; null when none exists. */
  current(kind: OpenAiModelKind, stored: OpenAiSettings): ModelDefinition | null {
    const chosen = stored[`${kind}_model`];
    const candidates = this.candidates(kind);
    return candidates.find((d) => d.id === chosen) ?? candidates[0] ?? null;
  }

  /** The model a request's `model` names for a route (ApiError with param `model` when none fits). */
  async resolve(kind: OpenAiModelKind, requested: unknown): Promise<ModelDefinition> {
    if (typeof requested !== 'string' || requested.trim() === '') {
      throw new ApiError('invalid_request', 'you must provide a model parameter', { param: 'model' });
    }
    const speechName = (OPENAI_SPEECH_MODELS as readonly string[]).includes(requested);
    const transcriptionName = (OPENAI_TRANSCRIPTION_MODELS as readonly string[]).includes(requested);
    if (speechName || transcriptionName) {
      if (speechName !== (kind === 'speech')) {
        throw new ApiError('invalid_request', `${requested} is a ${speechName ? 'text-to-speech' : 'speech-to-text'} model; this route needs a ${kind === 'speech' ? 'text-to-speech' : 'speech-to-text'} one`, { param: 'model' });
      }
      const stored = await this.read();
      let def = this.current(kind, stored);
      if (!def || (stored[`${kind}_model`] && def.id !== stored[`${kind}_model`])) {
        await this.lookElsewhere();
        def = this.current(kind, stored);
      }
      if (!def) {
        throw new ApiError(
          'model_unavailable',
          kind === 'speech'
            ? 'no text-to-speech model is available on this machine'
            : `no ${kind === 'translation' ? 'speech-to-text model that can give English' : 'speech-to-text model'} is available: install one (voxdesk models pull parakeet-tdt-0.6b-v2${kind === 'translation' ? ', or whisper-small to translate' : ''}) or PocketSphinx`,
          { param: 'model' },
        );
      }
      return def;
    }
    let def = this.catalogue.resolveModel(requested);
    if (!def || !usable(def)) {
      await this.lookElsewhere();
      def = this.catalogue.resolveModel(requested);
    }
    if (!def) throw new ApiError('not_found', `the model ${requested} does not exist; GET /v1/models lists this service's models`, { param: 'model' });
    // The speech route also speaks with a voice-cloning model, in a saved cloned voice (openai/saved-speech-voice.ts).
    if (!def.products.includes(PRODUCT_OF[kind]) && !(kind === 'speech' && def.products.includes('voice-cloning'))) {
      throw new ApiError('invalid_request', `model ${requested} does not serve ${PRODUCT_OF[kind]}${kind === 'speech' ? ' or voice-cloning' : ''} (it serves ${def.products.join(', ') || 'nothing'})`, { param: 'model' });
    }
    if (!usable(def)) throw new ApiError('model_unavailable', `model ${requested} is unavailable: ${def.reason ?? 'no reason given'}`, { param: 'model' });
    return def;
  }

  /** The voice a request's `voice` names on a speech model (ApiError with param `voice` when it names none). */
  async voice(def: ModelDefinition, requested: unknown): Promise<TtsVoice> {
    const id = typeof requested === 'object' && requested !== null && !Array.isArray(requested) ? (requested as { id?: unknown }).id : requested;
    if (typeof id !== 'string' || id.trim() === '') {
      throw new ApiError('invalid_request', 'voice is required: an OpenAI voice name (alloy, ash, …) or one of the model’s own voices', { param: 'voice' });
    }
    if (isOpenAiVoice(id)) return this.voiceFor(def, id, await this.read());
    const own = findModelVoice(def, id);
    if (!own) {
      throw new ApiError(
        'invalid_request',
        `model ${def.id} has no voice "${id}"; use an OpenAI voice (${OPENAI_VOICES.join(', ')}) or one of its voices (GET /v1/settings/openai lists them)`,
        { param: 'voice' },
      );
    }
    return own;
  }

  private voiceFor(def: ModelDefinition, name: OpenAiVoice, stored: OpenAiSettings): TtsVoice {
    const override = stored.voices[def.id]?.[name];
    return (override ? findModelVoice(def, override) : undefined) ?? defaultVoiceFor(def, name);
  }

  async view(): Promise<OpenAiSettingsView> {
    const stored = await this.read();
    const speech = this.current('speech', stored);
    const resolvedId = (kind: OpenAiModelKind): string | null => this.current(kind, stored)?.id ?? null;
    return {
      ...stored,
      resolved: {
        transcription_model: resolvedId('transcription'),
        translation_model: resolvedId('translation'),
        speech_model: speech?.id ?? null,
        voices: speech
          ? (Object.fromEntries(OPENAI_VOICES.map((name) => [name, (({ id, name: label }) => ({ id, name: label }))(this.voiceFor(speech, name, stored))])) as Record<OpenAiVoice, ModelChoice>)
          : null,
      },
      choices: {
        transcription: this.candidates('transcription').map(choice),
        translation: this.candidates('translation').map(choice),
        speech: this.candidates('speech').map(choice),
        voices: speech ? modelVoices(speech).map(({ id, name }) => ({ id, name })) : [],
      },
      speech_formats: availableOutputFormats(),
    };
  }

  /**
   * Applies `{transcription_model?, translation_model?, speech_model?, voices?}`: a model is null (automatic) or a
   * model of the kind that can answer now; `voices` is `{model id: {openai voice: voice id | null}}` (null = back to
   * the default). Everything is checked before anything is saved.
   */
  async update(body: Record<string, unknown>): Promise<OpenAiSettingsView> {
    const next = await this.read();
    for (const key of Object.keys(body)) {
      if (!['transcription_model', 'translation_model', 'speech_model', 'voices'].includes(key)) {
        throw new ApiError('unsupported_param', `unknown setting "${key}" (transcription_model, translation_model, speech_model, voices)`);
      }
    }
    for (const kind of ['transcription', 'translation', 'speech'] as const) {
      const field = `${kind}_model` as const;
      if (!(field in body)) continue;
      const value = body[field];
      if (value === null) {
        next[field] = null;
        continue;
      }
      if (typeof value !== 'string' || !this.candidates(kind).some((d) => d.id === value)) {
        throw new ApiError('invalid_params', `${field} must be null (automatic) or one of: ${this.candidates(kind).map((d) => d.id).join(', ') || 'no model is available'}`);
      }
      next[field] = value;
    }
    if ('voices' in body) this.mergeVoices(next, body.voices);
    await this.settings.set(OPENAI_SETTINGS_KEY, next);
    return this.view();
  }

  private mergeVoices(next: OpenAiSettings, raw: unknown): void {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('invalid_params', 'voices must be an object {model id: {voice name: voice id or null}}');
    for (const [modelId, map] of Object.entries(raw as Record<string, unknown>)) {
      const def = this.catalogue.resolveModel(modelId);
      if (!def || !def.products.includes('text-to-speech')) throw new ApiError('invalid_params', `voices: ${modelId} is not a text-to-speech model`);
      if (map === null || typeof map !== 'object' || Array.isArray(map)) throw new ApiError('invalid_params', `voices.${modelId} must be an object {voice name: voice id or null}`);
      const merged: Partial<Record<OpenAiVoice, string>> = { ...(next.voices[modelId] ?? {}) };
      for (const [name, voiceId] of Object.entries(map as Record<string, unknown>)) {
        if (!isOpenAiVoice(name)) throw new ApiError('invalid_params', `voices.${modelId}: "${name}" is not an OpenAI voice (${OPENAI_VOICES.join(', ')})`);
        if (voiceId === null) {
          delete merged[name];
          continue;
        }
        const voice = typeof voiceId === 'string' ? findModelVoice(def, voiceId) : undefined;
        if (!voice) throw new ApiError('invalid_params', `voices.${modelId}.${name}: ${JSON.stringify(voiceId)} is not a voice of ${modelId}`);
        merged[name] = voice.id;
      }
      if (Object.keys(merged).length === 0) delete next.voices[modelId];
      else next.voices[modelId] = merged;
    }
  }
}

/** `created` and `owned_by` for GET /v1/models records (OpenAI's Model fields; additive). */
export function openAiModelFields(record: CatalogueRecord, created: number): { created: number; owned_by: string } {
  return { created, owned_by: record.provider === 'local' ? 'voxdesk' : 'voxdesk-hosted' };
}
