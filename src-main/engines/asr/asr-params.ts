/**
 * Reads a speech-to-text job's params inside the worker. The job service has already validated them against the
 * model's schema (asr-params-schema.ts); they are checked again here because some values make sherpa-onnx EXIT the
 * process rather than throw (../shared/models/tiny/README.md): a Whisper language the model lacks, modified beam
 * search on a CTC model. Those must never be reachable from a request, whatever the schema said.
 */
import { JobError } from '../../common/errors.js';
import { DEFAULT_CHUNK_SECONDS, DEFAULT_HOTWORDS_SCORE, DEFAULT_MAX_ACTIVE_PATHS, DEFAULT_MIN_SILENCE_MS } from './asr-params-schema.js';
import { MAX_DIARIZATION_SPEAKERS } from '../../common/limits.js';
import { SPEAKER_MATCH_THRESHOLD } from '../../common/speaker-matching.js';
import type { SpeakerCount } from './diarization.js';
import type { ResponseFormat, TimestampGranularity } from './transcript.js';

export type DecodingMethod = 'greedy_search' | 'modified_beam_search';

export interface AsrJobParams {
  responseFormat: ResponseFormat;
  granularity: TimestampGranularity;
  /** 'auto' or a language code from the model's list. */
  language: string;
  task: 'transcribe' | 'translate';
  useItn: boolean;
  speakerDiarization: boolean;
  /** How many speakers diarization finds (diarization.ts SpeakerCount): exact, a range, or estimated. */
  speakers: SpeakerCount;
  /** Cosine similarity a diarized voice must reach to take a name from the account's speaker library. */
  speakerMatchThreshold: number;
  /** Silero VAD segments (true) or fixed windows (false). */
  vadFilter: boolean;
  /** Silence that ends a VAD segment, in seconds. */
  minSilenceSeconds: number;
  /** Longest segment, in seconds. */
  chunkSeconds: number;
  decodingMethod: DecodingMethod;
  maxActivePaths: number;
  blankPenalty: number;
  /** Hotword phrases as written (each may end with " :boost"); [] for none. */
  hotwords: string[];
  hotwordsScore: number;
  /** Whisper: -1 = sherpa-onnx's own default. */
  tailPaddings: number;
  /** Whisper with language auto: detect per segment (true) or keep the first detection (false). */
  multilingual: boolean;
  languageDetectionSegments: number;
  /** Whisper: most tokens per segment; null = no limit. */
  maxNewTokens: number | null;
  /** Add punctuation and casing with the punctuation model (recognizers that give none). */
  punctuate: boolean;
}

export interface AsrParamRules {
  /** Codes the model accepts; [] = the engine takes no language (any value but auto/one of these is rejected). */
  languages: string[];
  translate: boolean;
  diarization: boolean;
  /** Silero VAD is installed. */
  vad: boolean;
  /** The family decodes with transducer options (decoding method, blank penalty, hotwords). */
  transducer: boolean;
  /** The punctuation model is installed for this recognizer (punctuate defaults to true). Default false. */
  punctuation?: boolean;
}

function invalid(message: string): JobError {
  return new JobError('invalid_params', message);
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalid(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as T;
}

function bool(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalid(`${name} must be true or false`);
  return value;
}

function num(name: string, value: unknown, fallback: number, min: number, max: number, integer = false): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw invalid(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return value;
}

/** Hotword phrases from the param: separated by commas or new lines, blanks dropped. */
export function hotwordPhrases(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'string') throw invalid('hotwords must be a string of phrases separated by commas or new lines');
  return value
    .split(/[,\n]/)
    .map((phrase) => phrase.trim())
    .filter(Boolean);
}

/**
 * num_speakers (exactly that many) or min_speakers/max_speakers (a range, either end optional), each 1 to
 * MAX_DIARIZATION_SPEAKERS: never num_speakers with a bound, never min above max.
 */
export function speakerCount(params: Record<string, unknown>): SpeakerCount {
  const read = (name: string): number | undefined =>
    params[name] === undefined || params[name] === null ? undefined : num(name, params[name], 1, 1, MAX_DIARIZATION_SPEAKERS, true);
  const exact = read('num_speakers');
  const min = read('min_speakers');
  const max = read('max_speakers');
  if (exact !== undefined && (min !== undefined || max !== undefined)) {
    throw invalid('give num_speakers (exactly that many speakers) or min_speakers/max_speakers (a range), not both');
  }
  if (min !== undefined && max !== undefined && min > max) throw invalid(`min_speakers (${min}) is more than max_speakers (${max})`);
  return { ...(exact !== undefined ? { exact } : {}), ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

export function readAsrParams(params: Record<string, unknown>, rules: AsrParamRules): AsrJobParams {
  const language = oneOf('language', params.language, ['auto', ...rules.languages], 'auto');
  const task = oneOf('task', params.task, rules.translate ? ['transcribe', 'translate'] : ['transcribe'], 'transcribe');
  const speakerDiarization = bool('speaker_diarization', params.speaker_diarization, false);
  if (speakerDiarization && !rules.diarization) {
    throw invalid('speaker_diarization needs the speaker-embedding and pyannote segmentation models: install them first');
  }
  const speakers = speakerCount(params);
  if (!speakerDiarization && (speakers.exact !== undefined || speakers.min !== undefined || speakers.max !== undefined)) {
    throw invalid('num_speakers, min_speakers and max_speakers need speaker_diarization true');
  }
  const vadFilter = bool('vad_filter', params.vad_filter, rules.vad);
  if (vadFilter && !rules.vad) throw invalid('vad_filter needs Silero VAD: install it first (voxdesk models pull silero-vad)');
  const hotwords = rules.transducer ? hotwordPhrases(params.hotwords) : [];
  // Only transducers have a decoding choice; modified beam search on a CTC model ends sherpa-onnx's process.
  const decodingMethod = rules.transducer
    ? oneOf<DecodingMethod>('decoding_method', params.decoding_method, ['greedy_search', 'modified_beam_search'], hotwords.length > 0 ? 'modified_beam_search' : 'greedy_search')
    : 'greedy_search';
  if (hotwords.length > 0 && decodingMethod !== 'modified_beam_search') throw invalid('hotwords need decoding_method modified_beam_search');
  return {
    responseFormat: oneOf('response_format', params.response_format, ['json', 'verbose_json'], 'verbose_json'),
    granularity: oneOf<TimestampGranularity>('timestamp_granularity', params.timestamp_granularity, ['word', 'segment', 'none'], 'word'),
    language,
    task,
    useItn: bool('use_itn', params.use_itn, true),
    speakerDiarization,
    speakers,
    speakerMatchThreshold: num('speaker_match_threshold', params.speaker_match_threshold, SPEAKER_MATCH_THRESHOLD, 0, 1),
    vadFilter,
    minSilenceSeconds: num('min_silence_duration_ms', params.min_silence_duration_ms, DEFAULT_MIN_SILENCE_MS, 0, 10_000, true) / 1000,
    chunkSeconds: num('chunk_length', params.chunk_length, DEFAULT_CHUNK_SECONDS, 1, 30, true),
    decodingMethod,
    maxActivePaths: num('max_active_paths', params.max_active_paths, DEFAULT_MAX_ACTIVE_PATHS, 1, 16, true),
    blankPenalty: rules.transducer ? num('blank_penalty', params.blank_penalty, 0, 0, 100) : 0,
    hotwords,
    hotwordsScore: num('hotwords_score', params.hotwords_score, DEFAULT_HOTWORDS_SCORE, 0, 20),
    tailPaddings: num('tail_paddings', params.tail_paddings, -1, -1, 1000, true),
    multilingual: bool('multilingual', params.multilingual, false),
    languageDetectionSegments: num('language_detection_segments', params.language_detection_segments, 1, 1, 100, true),
    punctuate: (() => {
      const wanted = bool('punctuate', params.punctuate, rules.punctuation ?? false);
      if (wanted && !rules.punctuation) throw invalid('punctuate needs the punctuation model: install it first (voxdesk models pull punct-ct-transformer-zh-en)');
      return wanted;
    })(),
    maxNewTokens: params.max_new_tokens === undefined || params.max_new_tokens === null ? null : num('max_new_tokens', params.max_new_tokens, 448, 1, 448, true),
  };
}
