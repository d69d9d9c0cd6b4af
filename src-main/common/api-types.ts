/** Wire types of the public API (spec "Resources" + docs/design.md §3), shared by the service, clients and renderer. */
import type { AiResult } from './ai-types.js';
import type { Capability, JobProduct, Product } from './products.js';
import type { BatchStatus, ItemStatus, JobStatus } from './job-states.js';

export type JsonSchema = { [key: string]: unknown };

export interface Artifact {
  url: string;
  /** Extensions (documented): what the link serves. */
  content_type: string;
  bytes: number;
  duration_seconds: string | null;
  sample_rate: number | null;
  channels: number | null;
  expires_at: string;
}

/** Why a recognised segment may be wrong (engines/asr/segment-guardrails.ts, docs/transcripts.md). */
export type SegmentFlag = 'repetition' | 'compression_ratio' | 'speech_rate' | 'no_speech';

export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  text: string;
  speaker?: string;
  /**
   * Extension: why this segment may be wrong — `repetition`, `compression_ratio`, `speech_rate`, `no_speech`
   * (engines/asr/segment-guardrails.ts, docs/transcripts.md); absent when nothing is doubtful.
   */
  flags?: SegmentFlag[];
  /**
   * Extension, voice-conversion: how the utterance spoken again in the new voice was fitted to its time — `padded`
   * (followed by silence), `sped_up` (spoken faster), `cut` (cut at the next utterance) (docs/voice-cloning.md).
   */
  fit?: 'padded' | 'sped_up' | 'cut';
}
export interface TranscriptWord {
  word: string;
  start: number;
  end: number;
  speaker?: string;
  /**
   * Extension: true when the recognizer gave no time for this word and it was spread evenly over its segment's
   * characters (Whisper exports without attention outputs, Moonshine); absent for times measured from token times.
   */
  interpolated?: boolean;
  /**
   * Extension: how sure the recognizer is of this word, 0..1, where the engine scores words (PocketSphinx's
   * posterior, a transducer's token probabilities: docs/transcripts.md "Confidence"); absent when it gives none.
   */
  confidence?: number;
}

/**
 * One committed segment of a transcription (GET /v1/speech-to-text/{id}/segments, an extension): indexes count from
 * 0 over the recording and never change; a segment that held no words is left out of the list.
 */
export interface SegmentView {
  index: number;
  start: number;
  end: number;
  text: string;
  /** When the engine gives word timings. */
  words?: TranscriptWord[];
}

export interface SegmentList {
  object: 'list';
  data: SegmentView[];
  /** Pass as `after` to get the segments committed since; null while there are none yet. */
  next_after: number | null;
  /** True once the job succeeded and this page reaches its last segment. */
  complete: boolean;
}

/** `result` of a succeeded job: transcript fields for speech to text, artifacts for audio products. */
export interface JobResult {
  text?: string;
  language?: string;
  duration?: number;
  segments?: TranscriptSegment[];
  words?: TranscriptWord[];
  artifacts?: Artifact[];
  /**
   * Extension, speech to text with speaker_diarization: the speakers recognised from the account's speaker library
   * (docs/speakers.md), speaker key → name (`{"SPEAKER_1": "Anna"}`); absent when none was recognised.
   */
  speaker_names?: Record<string, string>;
  /**
   * Extension, a meeting capture's job (docs/capture.md): whether the other side's voices were told apart —
   * `diarized` (with how many speakers), `not_available` (the speaker models are not installed) or `failed` — and why not.
   */
  speaker_diarization?: { status: 'diarized' | 'not_available' | 'failed'; speakers?: number; message?: string };
  /** Extension, stem separation: the stem each artifact holds, in artifact order (`vocals`, `accompaniment`). */
  stems?: string[];
  /** Extension, voice-cloning, voice-continuation and voice-conversion: the request part the voice came from (`reference_audio`, `audio`). */
  voice_source?: string;
  /** Extension, voice-cloning and voice-continuation: the words of the reference the model was given (sent or transcribed). */
  reference_text?: string;
  /** Extension, voice-continuation: seconds into the artifact where the new speech begins (0 without the original). */
  continuation_start?: number;
  /** A language-model action's job (product transcript-ai): what it answered (`text` is the answer). */
  ai?: AiResult;
  /**
   * Extension, voice design and speech in a saved designed voice (docs/voices.md): the voice that spoke — the base
   * voices blended and their weights, its pace and pitch, what the description was read as, and the saved voice.
   */
  designed_voice?: DesignedVoiceResult;
  /**
   * Extension: the audio is synthetic speech in a made voice — designed (docs/voices.md), or cloned, continued or
   * converted from an uploaded recording (docs/voice-cloning.md; a WAV artifact also says so in its LIST/INFO comment).
   */
  synthetic?: boolean;
}

/** A saved voice of the account (`/v1/voices`, docs/voices.md). Every saved voice is synthetic. */
export interface SavedVoice {
  id: string;
  object: 'voice';
  name: string;
  kind: 'designed' | 'cloned';
  synthetic: true;
  /** designed: the Kokoro model whose voices it blends (speak it with that model, `params.voice` = this id). */
  model: string | null;
  /** designed: its recipe. */
  design: { voices: { name: string; weight: number }[]; speed: number; pitch_semitones: number; attributes: Record<string, string | number>; seed: number } | null;
  /** cloned: the reference recording's size and what it says (used through voice-cloning's `voice_id`). */
  reference: { bytes: number; text: string | null } | null;
  created_at: string;
  updated_at: string;
}

export interface DesignedVoiceResult {
  model: string;
  voices: { name: string; weight: number }[];
  speed: number;
  pitch_semitones: number;
  attributes: Record<string, string | number>;
  seed: number;
  /** Words of the description no keyword rule knows (not used to design the voice). */
  unknown_words: string[];
  /** What the method could not honour exactly. */
  notes: string[];
  /** The saved voice (save_as, or the voice named in a text-to-speech request): id and name. */
  saved_voice: { id: string; name: string } | null;
}

export interface Job {
  id: string;
  object?: 'job';
  product: JobProduct;
  status: JobStatus;
  model_id: string;
  name: string | null;
  language?: string | null;
  duration_seconds: string | null;
  result: JobResult | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Extensions (docs/design.md): progress 0..1 where the engine can tell; the batch this job belongs to. */
  progress: number | null;
  batch_id: string | null;
  /**
   * Extension, speech to text: seconds into the recording where the current (or last) run continued from the job's
   * checkpoint, after a restart, a pause or a retry; null when it started from the beginning.
   */
  resumed_from?: number | null;
  /**
   * Extension, speech to text: the latest revision of the transcript (0: the engine's own, unedited) once the job
   * succeeded; null before. A client showing `result.text` knows from it when an edit made that text stale.
   */
  transcript_revision?: number | null;
}

export interface BatchFile {
  job_id: string | null;
  name: string | null;
  status: ItemStatus;
  result: JobResult | null;
  error_code: string | null;
  error_message: string | null;
  progress: number | null;
}

export interface Batch {
  id: string;
  object?: 'batch';
  product: Product;
  status: BatchStatus;
  model_id: string;
  file_count: number;
  succeeded: number;
  failed: number;
  remaining: number;
  files: BatchFile[];
  created_at: string;
  finished_at: string | null;
}

export interface Pricing {
  currency: 'USD';
  request_fee_usd: number;
  per_minute_usd: number;
  /** Priced options, e.g. `{speaker_diarization: {per_minute_usd: 0.0075}}`. */
  options: Record<string, { per_minute_usd: number }>;
}

/** As a catalogue record publishes them (Catalogue.limitsFor); a model definition's own null means "no limit of its own". */
export interface ModelLimits {
  /** Largest accepted upload in bytes, inclusive (499,999,999 for the spec's "under 500 MB"); null: takes no file. */
  max_file_bytes: number | null;
  max_audio_seconds: number | null;
  /** Longest text in Unicode code points (common/text-length.ts textLength); null: takes no text. */
  max_text_chars: number | null;
}

export type ModelStatus = 'available' | 'unavailable';

export interface CatalogueRecord {
  id: string;
  object?: 'model';
  name: string;
  description: string;
  capability: Capability;
  /** Product routes that accept this model. */
  products: Product[];
  status: ModelStatus;
  reason: string | null;
  provider: 'local' | 'remote';
  engine: string;
  languages: string[];
  live: boolean;
  /** Live models only: whether `session.update` speed applies. */
  accepts_speed: boolean;
  pricing: Pricing;
  limits: ModelLimits;
  params_schema: JsonSchema;
  /** Downloadable models: what a download costs; null for built-in models. */
  download: { size_bytes: number; installed: boolean; licence: string } | null;
  /**
   * The spec's label of the model family this model serves (W-turbo, W-full, P3, P2, P-ctc, P-rnnt, C-flash, C-v2,
   * Q-asr, CO-asr: common/spec-families.ts), whose params table applies to it; null when it serves none of them.
   * Optional only for rows from older services (a hosted catalogue may not send it).
   */
  spec_family?: string | null;
}

export interface Quote {
  model_id: string;
  seconds: number;
  request_fee_usd: number;
  usage_usd: number;
  options_usd: number;
  total_usd: number;
  currency: 'USD';
}

/**
 * GET/PUT /v1/settings/budget: the monthly cap on hosted spending and where the month stands. Months are calendar
 * months in UTC; spending counts every account's hosted charges (one hosted key pays for all of them).
 */
export interface BudgetSettings {
  /** The cap in dollars a month; null: no cap. */
  monthly_usd: number | null;
  currency: 'USD';
  /** The month the figures are for, `YYYY-MM` (UTC). */
  month: string;
  /** When the month began and when the next begins (the cap's spending starts again from 0). */
  period_start: string;
  resets_at: string;
  /** Hosted charges in the ledger this month. */
  spent_usd: number;
  /** Quotes of hosted work under way and not charged yet (held against the cap from the moment it is forwarded). */
  reserved_usd: number;
  /** monthly_usd − spent − reserved, never below 0; null without a cap. */
  remaining_usd: number | null;
  /** Hosted jobs and pending batch items waiting for the budget (`error_code` waiting_for_budget). */
  waiting: number;
}

/** Sums of ledger charges (dollars, exact to the micro-dollar). */
export interface UsageAmounts {
  total_usd: number;
  request_fees_usd: number;
  usage_usd: number;
  options_usd: number;
  /** Audio seconds billed as usage. */
  seconds: number;
  /** Request fees charged: successful requests, batches and live sessions. */
  requests: number;
}

export interface UsageGroup extends UsageAmounts {
  /** `YYYY-MM-DD` (UTC day), a model id or a product. */
  key: string;
  /** The part done on this device, and the part a hosted service billed. */
  on_device_usd: number;
  hosted_usd: number;
}

export type UsageGroupBy = 'day' | 'model' | 'product';

/** GET /v1/usage: the key's account's charges in [from, to), from the ledger. */
export interface UsageReport extends UsageAmounts {
  object: 'usage';
  currency: 'USD';
  from: string;
  to: string;
  group_by: UsageGroupBy;
  /** total_usd in micro-dollars: the ledger's own integer sum. */
  total_usd_micro: number;
  on_device: UsageAmounts;
  hosted: UsageAmounts;
  /** Groups with charges, in ascending key order (days without charges are left out). */
  data: UsageGroup[];
}

/** GET /v1/health: `{status}` alone without a key; the counts only for a request with a valid key. */
export interface Health {
  status: 'ok';
  uptime_seconds?: number;
  queued?: number;
  running?: number;
}

export interface ListResponse<T> {
  object: 'list';
  data: T[];
  next_cursor?: string | null;
}

/**
 * GET /v1/local/welcome?language=xx — what the first-start screen offers (docs/api-conventions.md, "First start"):
 * whether the data dir is new, the recognizer recommended for the person's language with its size, licence and
 * download state, other good choices, and what works with nothing downloaded. Local account only, like /v1/local/models.
 */
export interface WelcomeInfo {
  object: 'welcome';
  /**
   * True while the data dir holds no job and no recognizer was downloaded or imported (built-in support models do
   * not count, a download under way does not either): the first-start screen is for this state.
   */
  new_data_dir: boolean;
  /** The language the recommendation is for: the query's primary subtag in lower case (`de` for `de-AT`); `en` without one. */
  language: string;
  /** null only when the service offers none of the recommended packages (a test catalogue). */
  recommended: RecommendedRecognizer | null;
  /** Other good choices for the language, best first (Whisper small beside Parakeet v3); often empty. */
  alternatives: RecommendedRecognizer[];
  /** What recognizes speech with nothing downloaded; null when the system has no such recognizer. */
  fallback: FallbackRecognizer | null;
}

/** Why a recognizer is recommended, for the screen to word in its own language. */
export type RecommendationReason =
  /** Parakeet TDT v2: the most accurate English recognizer offered. */
  | 'best_for_english'
  /** Parakeet TDT v3: 25 European languages, the person's among them. */
  | 'european_languages'
  /** Whisper small: about 100 languages, detects which one is spoken. */
  | 'many_languages';

/** A downloadable recognizer as the welcome screen shows it; its download is the model manager's (POST /v1/local/models/{id}/download, resumable). */
export interface RecommendedRecognizer {
  /** The model manager's package id, also the catalogue model id once installed. */
  id: string;
  name: string;
  languages: string[];
  /** Download size (installed: size on disk). */
  size_bytes: number;
  licence: string;
  reason: RecommendationReason;
  /** The same reason as an English sentence (for scripts and logs). */
  reason_text: string;
  /** The model manager's state: not_installed, downloading, installing, installed or failed (then error_code/message). */
  state: string;
  /** While downloading, and after a failure where the download resumes: fraction 0..1. */
  progress: number | null;
  downloaded_bytes: number | null;
  error_code: string | null;
  error_message: string | null;
}

/** A recognizer that works with nothing downloaded: PocketSphinx, when the system has it. */
export interface FallbackRecognizer {
  id: string;
  name: string;
  languages: string[];
  /** Whether it can take a job now (the catalogue's status). */
  available: boolean;
  /** Always `low` today: about half the words of a recording come out wrong. */
  accuracy: 'low';
  /** English sentence saying what to expect. */
  note: string;
}

/** GET /v1/queue: the account's jobs queued and running, batch items pending, and why queued jobs wait (by code). */
export interface QueueSummary {
  queued: number;
  running: number;
  /** Batch items accepted but not yet jobs (a hosted batch not yet accepted by the hosted service). */
  pending: number;
  waiting: Record<string, number>;
}
