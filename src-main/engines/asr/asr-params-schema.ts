/**
 * The params schema of an on-device speech-to-text model: the spec's per-model params (its "params for speech to
 * text" table) mapped onto what sherpa-onnx-node 1.13.8 can do for the family, plus the decoding options sherpa-onnx
 * has that the spec does not name. The catalogue publishes this schema and the validator enforces it, so a client
 * reads here what the model honours (docs/engines-and-models.md has the table per family).
 *
 * A spec param the family can honour is declared with its range and default. A spec param sherpa-onnx cannot honour
 * beyond one setting (Whisper's sampling temperature, its prompt, repetition penalties…: sherpa-onnx decodes Whisper
 * greedily, each segment on its own) is declared with exactly the value that describes what it does, and a
 * description beginning "Only …" that says why: any other value is refused with that reason (params-validator.ts
 * quotes it). A param a family has nothing to do with is not declared; the refusal names the params it accepts.
 */
import type { JsonSchema } from '../../common/api-types.js';
import { MAX_DIARIZATION_SPEAKERS } from '../../common/limits.js';
import { SPEAKER_MATCH_THRESHOLD } from '../../common/speaker-matching.js';
import type { AsrFamily } from '../../common/model-families.js';
import type { SpecFamily } from '../../common/spec-families.js';

export interface AsrSchemaOptions {
  family: AsrFamily;
  /** Language codes the model knows ([] when it does not say). */
  languages: readonly string[];
  /** Silero VAD is installed: vad_filter can be true. */
  vad: boolean;
  /** The speaker-embedding and pyannote segmentation models are installed: speaker_diarization can be true. */
  diarization: boolean;
  /** The spec's family label the model serves, where its params table differs from the engine family's (W-turbo, P3 …). */
  specFamily?: SpecFamily;
  /**
   * The recognizer gives no punctuation: true — the punctuation model is installed (`punctuate`, on by default);
   * false — it is not (`punctuate` only false, saying how to get it); undefined — the family punctuates itself.
   */
  punctuation?: boolean;
  /** The spoken-language identification model is installed: a family told its language (Canary) finds it for auto. */
  identifiesLanguage?: boolean;
}

/** The `punctuate` param of a recognizer that gives no punctuation (PocketSphinx, NeMo CTC). */
export function punctuateParam(installed: boolean): Record<string, JsonSchema> {
  return {
    punctuate: installed
      ? {
          type: 'boolean',
          default: true,
          description: 'Add punctuation and sentence casing with the punctuation model (this recognizer gives none); false keeps its lower-case words as they are.',
        }
      : {
          type: 'boolean',
          enum: [false],
          default: false,
          description: 'Only false here: punctuation needs the punctuation model (voxdesk models pull punct-ct-transformer-zh-en).',
        },
  };
}

/** Families recognised as a stream: they find their own pauses (no VAD) and decode as they go. */
const STREAMING: readonly AsrFamily[] = ['streaming-transducer'];
/** Families whose results carry token times (word timings); the others' words are interpolated within a segment. */
export const TOKEN_TIMED_FAMILIES: readonly AsrFamily[] = ['nemo-ctc', 'nemo-transducer', 'streaming-transducer', 'sense-voice'];
/** Transducers: greedy or modified beam search, blank penalty, hotwords (sherpa-onnx's only biasing). */
export const TRANSDUCER_FAMILIES: readonly AsrFamily[] = ['nemo-transducer', 'streaming-transducer'];
/** Families with a language setting ('auto' detects). */
export const LANGUAGE_AWARE_FAMILIES: readonly AsrFamily[] = ['whisper', 'sense-voice', 'canary'];

/** Longest segment a recording is cut into, in seconds (Whisper reads 30 s at most). Default 25. */
export const DEFAULT_CHUNK_SECONDS = 25;
/** Silence that ends a VAD speech segment by default, in milliseconds (vad.ts VAD_DEFAULTS). */
export const DEFAULT_MIN_SILENCE_MS = 500;
/** sherpa-onnx's defaults for modified beam search and hotwords. */
export const DEFAULT_MAX_ACTIVE_PATHS = 4;
export const DEFAULT_HOTWORDS_SCORE = 1.5;

const only = (description: string): string => `Only ${description}`;

function common(options: AsrSchemaOptions): Record<string, JsonSchema> {
  const tokenTimed = TOKEN_TIMED_FAMILIES.includes(options.family);
  return {
    response_format: {
      type: 'string',
      enum: ['json', 'verbose_json'],
      default: 'verbose_json',
      description: 'json: text only; verbose_json: also language, duration, segments and words (always all four).',
    },
    timestamp_granularity: {
      type: 'string',
      enum: ['word', 'segment', 'none'],
      default: 'word',
      description: tokenTimed
        ? 'Which timings verbose_json fills: word (from the recognizer\'s token times, and segments), segment, or none (empty segments and words).'
        : 'Which timings verbose_json fills: word, segment, or none (empty segments and words). This family gives no token times: word times are spread evenly over each segment\'s characters and marked "interpolated": true.',
    },
  };
}

function segmentation(options: AsrSchemaOptions): Record<string, JsonSchema> {
  if (STREAMING.includes(options.family)) return {};
  const properties: Record<string, JsonSchema> = {
    vad_filter: options.vad
      ? { type: 'boolean', default: true, description: 'true: Silero VAD cuts the recording at pauses and leaves silence out; false: fixed windows cut at quiet moments.' }
      : {
          type: 'boolean',
          enum: [false],
          default: false,
          description: only('false here: Silero VAD is not installed (voxdesk models pull silero-vad), so recordings are cut into fixed windows at quiet moments.'),
        },
    chunk_length: {
      type: 'integer',
      minimum: 1,
      maximum: 30,
      default: DEFAULT_CHUNK_SECONDS,
      description: 'Longest segment, in seconds: longer speech is cut at its quietest moment near this length.',
    },
  };
  if (options.vad) {
    properties.min_silence_duration_ms = {
      type: 'integer',
      minimum: 0,
      maximum: 10_000,
      // No `default` keyword: filled in, it would be "given" with vad_filter false and trip the rule below.
      description: `With vad_filter: a pause at least this long ends a speech segment (Silero VAD min_silence_duration; default ${DEFAULT_MIN_SILENCE_MS}).`,
    };
  }
  return properties;
}

function transducer(options: AsrSchemaOptions): Record<string, JsonSchema> {
  if (!TRANSDUCER_FAMILIES.includes(options.family)) return {};
  return {
    decoding_method: {
      type: 'string',
      enum: ['greedy_search', 'modified_beam_search'],
      description: 'sherpa-onnx decoding: greedy_search (the default), or modified_beam_search (the default when hotwords are given).',
    },
    max_active_paths: {
      type: 'integer',
      minimum: 1,
      maximum: 16,
      default: DEFAULT_MAX_ACTIVE_PATHS,
      description: 'Beam width of modified_beam_search.',
    },
    blank_penalty: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      // The spec's default: 0.75 for P3, 0 for P2 (and every other transducer).
      default: options.specFamily === 'P3' ? 0.75 : 0,
      description: 'Subtracted from the blank token\'s score: higher values drop fewer words (spec: 0.75 for P3, 0 for P2).',
    },
    hotwords: {
      type: 'string',
      maxLength: 2000,
      description: 'Words or phrases to favour, separated by commas or new lines ("Voxdesk, Ada Lovelace"); a phrase may end with its own boost, "Voxdesk :3". Decoded with modified_beam_search.',
    },
    hotwords_score: {
      type: 'number',
      minimum: 0,
      maximum: 20,
      default: DEFAULT_HOTWORDS_SCORE,
      description: 'Boost of each hotword token (sherpa-onnx hotwords_score).',
    },
  };
}

/** The spec's Whisper params (W-turbo, W-full) and what sherpa-onnx's Whisper can do with each. */
function whisper(options: AsrSchemaOptions): Record<string, JsonSchema> {
  if (options.family !== 'whisper') return {};
  const multilingual = options.languages.length > 1;
  const greedy = 'sherpa-onnx decodes Whisper greedily, each segment on its own';
  // The spec gives task to W-full alone: large-v3-turbo was trained without translation data.
  const translates = multilingual && options.specFamily !== 'W-turbo';
  return {
    task: translates
      ? { type: 'string', enum: ['transcribe', 'translate'], default: 'transcribe', description: 'translate returns English.' }
      : {
          type: 'string',
          enum: ['transcribe'],
          default: 'transcribe',
          description: only(
            multilingual
              ? 'transcribe: Whisper large-v3-turbo (W-turbo) was not trained to translate; use W-full (whisper-large-v3) for English translations.'
              : 'transcribe: an English-only Whisper model cannot translate.',
          ),
        },
    multilingual: {
      type: 'boolean',
      default: false,
      description: 'With language auto: true detects the language of every segment; false detects it in the first segments (language_detection_segments) and keeps it.',
    },
    language_detection_segments: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 1,
      description: 'With language auto and multilingual false: how many spoken segments the language is detected from (the one said longest wins).',
    },
    max_new_tokens: {
      type: 'integer',
      minimum: 1,
      maximum: 448,
      description: 'Most tokens recognised per segment (omitted: as many as Whisper gives, at most 448).',
    },
    tail_paddings: {
      type: 'integer',
      minimum: -1,
      maximum: 1000,
      default: -1,
      description: 'Feature frames of silence sherpa-onnx adds after each segment before decoding (-1: its own default).',
    },
    temperature: { type: 'number', enum: [0], default: 0, description: only(`0 here: ${greedy}, which is sampling at temperature 0; other temperatures are not available on this device.`) },
    prompt: { type: 'string', maxLength: 0, description: only(`an empty prompt here: ${greedy} and takes no initial prompt.`) },
    prefix: { type: 'string', maxLength: 0, description: only(`an empty prefix here: ${greedy} and takes no forced prefix.`) },
    hotwords: { type: 'string', maxLength: 0, description: only('an empty string here: sherpa-onnx biases only transducer models towards hotwords, not Whisper.') },
    condition_on_previous_text: {
      type: 'boolean',
      enum: [false],
      default: false,
      description: only(`false here: ${greedy}, without the text before it.`),
    },
    prompt_reset_on_temperature: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.5,
      description: 'Has no effect here: there is no previous-text prompt to reset and the temperature never rises.',
    },
    compression_ratio_threshold: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 2.4,
      description: 'A segment whose text compresses more than this is marked `compression_ratio` in its flags (a loop or invented text); it is not decoded again at a higher temperature here (temperature is 0).',
    },
    language_detection_threshold: {
      type: 'number',
      enum: [0.5],
      default: 0.5,
      description: only('the default (0.5) here: sherpa-onnx reports the detected language without its probability.'),
    },
    log_prob_threshold: {
      type: 'number',
      enum: [-1],
      default: -1,
      description: only('the default (-1) here: sherpa-onnx reports no log probabilities to compare.'),
    },
    no_speech_threshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.6,
      description:
        'With vad_filter false, a window whose text the voice-activity detector hears no speech under is marked `no_speech` in its flags (kept, not dropped); a 32 ms frame counts as speech when Silero VAD gives it more than 1 − this. sherpa-onnx reports no no-speech probability of its own.',
    },
    hallucination_silence_threshold: {
      type: 'null',
      description: only('null (or leaving it out) here: skipping silences inside a segment needs Whisper\'s word timestamps, which sherpa-onnx gives only for exports with attention outputs.'),
    },
    repetition_penalty: { type: 'number', enum: [1], default: 1, description: only(`1 here: ${greedy} and penalises no repetition.`) },
    no_repeat_ngram_size: { type: 'integer', enum: [0], default: 0, description: only(`0 here: ${greedy} and blocks no repeated n-grams.`) },
    length_penalty: { type: 'number', enum: [1], default: 1, description: only(`1 here: ${greedy}; a length penalty weighs beam search hypotheses.`) },
    max_initial_timestamp: {
      type: 'number',
      enum: [999999],
      default: 999999,
      description: only('999999 (no limit) here: sherpa-onnx decodes without timestamp tokens, so the first one is never constrained.'),
    },
  };
}

/**
 * The spec's `language` for every model that knows its languages: a language-aware family (Whisper, SenseVoice) is
 * told it or detects it with auto; any other recognises only its own language(s), so naming one of them (or auto) is
 * honoured as it stands and reported as the result's language.
 */
function language(options: AsrSchemaOptions): Record<string, JsonSchema> {
  if (options.languages.length === 0) return {};
  const aware = LANGUAGE_AWARE_FAMILIES.includes(options.family);
  return {
    language: {
      type: 'string',
      enum: ['auto', ...options.languages],
      default: 'auto',
      description:
        options.family === 'canary'
          ? options.identifiesLanguage
            ? 'Spoken language; auto: the spoken-language identification model finds it in the first speech (English when it hears a language this model does not know), and the result reports it.'
            : 'Spoken language; auto transcribes as English (Canary is told the language; install whisper-tiny-language-id to have it identified).'
          : aware
            ? 'Spoken language; auto detects it.'
            : `This model recognises ${options.languages.join(', ')} only: auto or ${options.languages.length > 1 ? 'one of them' : 'that code'}.`,
    },
  };
}

function diarization(options: AsrSchemaOptions): Record<string, JsonSchema> {
  if (!options.diarization) {
    return {
      speaker_diarization: {
        type: 'boolean',
        enum: [false],
        default: false,
        description: only('false here: labelling speakers needs the speaker-embedding and pyannote segmentation models (voxdesk models pull titanet-small-en and pyannote-segmentation-3-0).'),
      },
    };
  }
  return {
    speaker_diarization: { type: 'boolean', default: false, description: 'Label segments and words with speakers (SPEAKER_0, SPEAKER_1, …).' },
    num_speakers: { type: 'integer', minimum: 1, maximum: MAX_DIARIZATION_SPEAKERS, description: 'Number of speakers when known; omitted: estimated from the audio (or within min_speakers/max_speakers).' },
    min_speakers: { type: 'integer', minimum: 1, maximum: MAX_DIARIZATION_SPEAKERS, description: 'At least this many speakers (not with num_speakers).' },
    max_speakers: { type: 'integer', minimum: 1, maximum: MAX_DIARIZATION_SPEAKERS, description: 'At most this many speakers (not with num_speakers).' },
    speaker_match_threshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      // No `default`: defaults are filled in, and this one would then ask for speaker_diarization in every request.
      description: `How similar (cosine, 0–1; default ${SPEAKER_MATCH_THRESHOLD}) a speaker’s voice must be to a profile of your speaker library to be named after it; higher names fewer speakers, more surely.`,
    },
  };
}

/** Cross-field rules the schema itself states (the validator words them: "… when params.X is given"). */
function rules(options: AsrSchemaOptions): JsonSchema {
  const dependent: Record<string, JsonSchema> = {};
  if (options.diarization) {
    const needsDiarization = { required: ['speaker_diarization'], properties: { speaker_diarization: { const: true } } };
    // num_speakers with a bound, and min above max, are refused by the service with a message (asr-params.ts speakerCount).
    dependent.num_speakers = needsDiarization;
    dependent.min_speakers = needsDiarization;
    dependent.max_speakers = needsDiarization;
    dependent.speaker_match_threshold = needsDiarization;
  }
  if (options.vad && !STREAMING.includes(options.family)) dependent.min_silence_duration_ms = { properties: { vad_filter: { const: true } } };
  if (TRANSDUCER_FAMILIES.includes(options.family)) dependent.hotwords = { properties: { decoding_method: { const: 'modified_beam_search' } } };
  return Object.keys(dependent).length > 0 ? { dependentSchemas: dependent } : {};
}

export function asrParamsSchema(options: AsrSchemaOptions): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    ...common(options),
    ...language(options),
    ...whisper(options),
    ...segmentation(options),
    ...transducer(options),
    ...(options.family === 'sense-voice' ? { use_itn: { type: 'boolean', default: true, description: 'Inverse text normalization (punctuation, numbers).' } } : {}),
    ...diarization(options),
    ...(options.punctuation !== undefined ? punctuateParam(options.punctuation) : {}),
  };
  return { type: 'object', properties, additionalProperties: false, ...rules(options) };
}
