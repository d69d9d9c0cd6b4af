/**
 * The OpenAI audio API's names and the settings that map them onto this service's models (docs/openai-compatible.md):
 * shared by the service's /v1/audio routes and the Settings page. Pure data and types.
 */

/** Speech-to-text model names clients send; each maps to the configured (or best available) on-device model. */
export const OPENAI_TRANSCRIPTION_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'gpt-4o-transcribe-diarize'] as const;
/** Text-to-speech model names clients send. */
export const OPENAI_SPEECH_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15'] as const;
/** OpenAI's built-in voices; each maps to a distinct voice of the speech model. */
export const OPENAI_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse', 'marin', 'cedar'] as const;
export type OpenAiVoice = (typeof OPENAI_VOICES)[number];

/** What a mapped name is used for: the model setting it reads. */
export type OpenAiModelKind = 'transcription' | 'translation' | 'speech';

export function isOpenAiVoice(value: string): value is OpenAiVoice {
  return (OPENAI_VOICES as readonly string[]).includes(value);
}

/** Stored settings: null = automatic (the best available model of the kind). */
export interface OpenAiSettings {
  transcription_model: string | null;
  translation_model: string | null;
  speech_model: string | null;
  /** Per speech model id: OpenAI voice name → that model's voice id (only the voices the person changed). */
  voices: Record<string, Partial<Record<OpenAiVoice, string>>>;
}

export const DEFAULT_OPENAI_SETTINGS: OpenAiSettings = { transcription_model: null, translation_model: null, speech_model: null, voices: {} };

export interface ModelChoice {
  id: string;
  name: string;
}

/** PUT /v1/settings/openai: omitted fields keep their value; null = automatic / back to the default voice. */
export interface OpenAiSettingsUpdate {
  transcription_model?: string | null;
  translation_model?: string | null;
  speech_model?: string | null;
  voices?: Record<string, Partial<Record<OpenAiVoice, string | null>>>;
}

/** GET /v1/settings/openai: what is stored, what it resolves to now, and what can be chosen. */
export interface OpenAiSettingsView extends OpenAiSettings {
  resolved: {
    transcription_model: string | null;
    translation_model: string | null;
    speech_model: string | null;
    /** OpenAI voice → the speech model's voice it speaks with now. */
    voices: Record<OpenAiVoice, ModelChoice> | null;
  };
  choices: {
    transcription: ModelChoice[];
    translation: ModelChoice[];
    speech: ModelChoice[];
    /** Voices of the resolved speech model. */
    voices: ModelChoice[];
  };
  /** Output formats /v1/audio/speech can make on this machine. */
  speech_formats: string[];
}
