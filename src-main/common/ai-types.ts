/**
 * What a language-model action on a transcript answers (docs/ai-actions.md): its job's `result.ai`, and the settings
 * that say which endpoint runs it. Pure types, shared with the renderer.
 */

export type AiActionName = 'summary' | 'action_items' | 'chapters' | 'clean_up' | 'translate' | 'ask';

/** A time the answer cites, checked against the transcript: it names a segment, and where the player seeks. */
export interface AiCitation {
  /** `mm:ss`, as the text shows it in brackets. */
  time: string;
  seconds: number;
  segment_index: number;
}

/** `result.ai` of a succeeded action (its `result.text` is the answer). */
export interface AiResult {
  action: AiActionName;
  /** The transcription the action read. */
  source_job_id: string;
  /** The revision of the transcript it read (clean-up: the one its edit was made on). */
  base_revision: number;
  /** clean_up: the revision the cleaned text became; null otherwise. */
  revision: number | null;
  language: string | null;
  question: string | null;
  citations: AiCitation[];
  /** How many parts the transcript was split into to fit the model's context. */
  parts: number;
  /** Tokens as the endpoint reported them (estimated where it reported none: `estimated` true). */
  tokens: { prompt: number; completion: number; estimated: boolean };
  /** The model that answered (the settings' `model`). */
  model: string;
}

/** GET /v1/settings/language-model. */
export interface LanguageModelSettingsInfo {
  base_url: string | null;
  model: string | null;
  context_tokens: number | null;
  /** What a hosted endpoint charges, USD per million tokens; null: nothing (a local endpoint). docs/ai-actions.md */
  price: { input_per_million_tokens: number; output_per_million_tokens: number } | null;
  api_key_set: boolean;
  key_problem: string | null;
  configured: boolean;
}

/** GET /v1/speech-to-text/{id}/ai/{ai_job_id}: the action's job and the text received so far while it runs. */
export interface AiActionProgress {
  job_id: string;
  status: string;
  /** The answer as it streams in (the part being answered now); null when nothing is streaming. */
  partial_text: string | null;
}
