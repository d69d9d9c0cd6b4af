/**
 * A speech-to-text JobResult in the shapes the OpenAI audio API answers with, so that clients written for it read
 * them unchanged: `json` ({text, usage}), `text`, `srt` and `vtt` (one cue per segment, as Whisper makes them),
 * `verbose_json` (task, language as a lower-case English name, duration, text, segments with Whisper's fields,
 * words — both arrays always present) and `diarized_json` (speaker-labelled segments). A segment's `avg_logprob` is
 * the mean log of its words' confidences where the recognizer scores words (0 where it does not), `no_speech_prob`
 * 1 when the voice-activity detector heard no speech under its text (the `no_speech` flag), else 0, and
 * `compression_ratio` Whisper's measure of its text when the caller gives one (common/ has no zlib); token ids are
 * not exposed ([]). Pure: shared by the service and tests.
 */
import type { JobResult, TranscriptSegment, TranscriptWord } from './api-types.js';
import { timestamp } from './transcript-formats.js';

export const OPENAI_RESPONSE_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;
export type OpenAiResponseFormat = (typeof OPENAI_RESPONSE_FORMATS)[number];

export type OpenAiGranularity = 'word' | 'segment';
export type OpenAiTask = 'transcribe' | 'translate';

export const OPENAI_CONTENT_TYPES: Record<OpenAiResponseFormat, string> = {
  json: 'application/json',
  verbose_json: 'application/json',
  diarized_json: 'application/json',
  text: 'text/plain; charset=utf-8',
  srt: 'text/plain; charset=utf-8',
  vtt: 'text/plain; charset=utf-8',
};

/** Whisper's language names by ISO 639-1 code (verbose_json says `"language": "english"`). */
const LANGUAGE_NAMES: Record<string, string> = {
  en: 'english', zh: 'chinese', de: 'german', es: 'spanish', ru: 'russian', ko: 'korean', fr: 'french', ja: 'japanese',
  pt: 'portuguese', tr: 'turkish', pl: 'polish', ca: 'catalan', nl: 'dutch', ar: 'arabic', sv: 'swedish', it: 'italian',
  id: 'indonesian', hi: 'hindi', fi: 'finnish', vi: 'vietnamese', he: 'hebrew', uk: 'ukrainian', el: 'greek', ms: 'malay',
  cs: 'czech', ro: 'romanian', da: 'danish', hu: 'hungarian', ta: 'tamil', no: 'norwegian', th: 'thai', ur: 'urdu',
  hr: 'croatian', bg: 'bulgarian', lt: 'lithuanian', la: 'latin', mi: 'maori', ml: 'malayalam', cy: 'welsh', sk: 'slovak',
  te: 'telugu', fa: 'persian', lv: 'latvian', bn: 'bengali', sr: 'serbian', az: 'azerbaijani', sl: 'slovenian',
  kn: 'kannada', et: 'estonian', mk: 'macedonian', br: 'breton', eu: 'basque', is: 'icelandic', hy: 'armenian',
  ne: 'nepali', mn: 'mongolian', bs: 'bosnian', kk: 'kazakh', sq: 'albanian', sw: 'swahili', gl: 'galician',
  mr: 'marathi', pa: 'punjabi', si: 'sinhala', km: 'khmer', sn: 'shona', yo: 'yoruba', so: 'somali', af: 'afrikaans',
  oc: 'occitan', ka: 'georgian', be: 'belarusian', tg: 'tajik', sd: 'sindhi', gu: 'gujarati', am: 'amharic',
  yi: 'yiddish', lo: 'lao', uz: 'uzbek', fo: 'faroese', ht: 'haitian creole', ps: 'pashto', tk: 'turkmen',
  nn: 'nynorsk', mt: 'maltese', sa: 'sanskrit', lb: 'luxembourgish', my: 'myanmar', bo: 'tibetan', tl: 'tagalog',
  mg: 'malagasy', as: 'assamese', tt: 'tatar', haw: 'hawaiian', ln: 'lingala', ha: 'hausa', ba: 'bashkir',
  jw: 'javanese', su: 'sundanese', yue: 'cantonese',
};

/** Whisper's language codes in Whisper's own order (its language tokens follow it; `yue` came with large-v3). */
export const WHISPER_LANGUAGE_CODES: readonly string[] = Object.keys(LANGUAGE_NAMES);

/** `english` → `en` (a model's metadata names its language in words); null for a name Whisper does not know. */
export function languageCode(name: string): string | null {
  const wanted = name.trim().toLowerCase();
  return Object.entries(LANGUAGE_NAMES).find(([, n]) => n === wanted)?.[0] ?? null;
}

/** `en` → `english`; an unknown code is returned as it is. */
export function languageName(code: string | undefined | null): string {
  if (!code) return 'unknown';
  const base = code.toLowerCase().split(/[-_]/)[0]!;
  return LANGUAGE_NAMES[code.toLowerCase()] ?? LANGUAGE_NAMES[base] ?? code;
}

export interface OpenAiTranscriptOptions {
  task: OpenAiTask;
  /** Which timestamps verbose_json carries (default: segments). */
  granularities: readonly OpenAiGranularity[];
  /** The language the caller sent, used when the engine did not report one. */
  language: string | null;
  /** Whisper's compression ratio of a segment's text (engines/asr/segment-guardrails.ts); absent: 1. */
  compressionRatio?: (text: string) => number;
}

/** The floor of a word's confidence before its log: a word scored 0 would make the whole segment's mean -Infinity. */
const MIN_CONFIDENCE = 1e-6;

/**
 * The mean natural log of the confidences of the words said within a segment (a word belongs to the segment its
 * middle falls in); 0 when none of them is scored, as a recognizer without scores cannot say it is unsure.
 */
export function averageLogProbability(segment: Pick<TranscriptSegment, 'start' | 'end'>, words: readonly TranscriptWord[]): number {
  let sum = 0;
  let count = 0;
  for (const word of words) {
    if (word.confidence === undefined) continue;
    const middle = (word.start + word.end) / 2;
    if (middle < segment.start || middle > segment.end) continue;
    sum += Math.log(Math.max(MIN_CONFIDENCE, word.confidence));
    count += 1;
  }
  return count === 0 ? 0 : sum / count;
}

function usage(result: JobResult): { type: 'duration'; seconds: number } {
  return { type: 'duration', seconds: Math.ceil(result.duration ?? 0) };
}

function segmentsOf(result: JobResult): TranscriptSegment[] {
  if (result.segments?.length) return result.segments;
  const text = result.text?.trim() ?? '';
  return text ? [{ id: 0, start: 0, end: result.duration ?? 0, text }] : [];
}

/**
 * verbose_json: always task, language, duration, text, segments and words (issue 32, point 1: a client reads
 * `words.map(…)` without a guard); the granularities asked for choose which arrays are filled (segments by default).
 * Interpolated word times (a model without token times) keep their `interpolated: true` mark.
 */
function verbose(result: JobResult, options: OpenAiTranscriptOptions): Record<string, unknown> {
  const granularities = options.granularities.length ? options.granularities : ['segment'];
  const body: Record<string, unknown> = {
    task: options.task,
    language: languageName(result.language ?? options.language),
    duration: result.duration ?? 0,
    text: result.text ?? '',
    segments: [],
    words: [],
  };
  if (granularities.includes('segment')) {
    body.segments = segmentsOf(result).map((s, id) => ({
      id,
      seek: Math.round(s.start * 100),
      start: s.start,
      end: s.end,
      // Whisper's segment texts start with the space that separates them from the previous one.
      text: ` ${s.text.trim()}`,
      tokens: [],
      temperature: 0,
      avg_logprob: averageLogProbability(s, result.words ?? []),
      compression_ratio: options.compressionRatio ? options.compressionRatio(s.text.trim()) : 1,
      no_speech_prob: s.flags?.includes('no_speech') ? 1 : 0,
    }));
  }
  if (granularities.includes('word')) {
    body.words = (result.words ?? []).map((w) => ({
      word: w.word.trim(),
      start: w.start,
      end: w.end,
      ...(w.interpolated ? { interpolated: true } : {}),
      ...(w.confidence === undefined ? {} : { confidence: w.confidence }),
    }));
  }
  body.usage = usage(result);
  return body;
}

/** Speakers `SPEAKER_0`, `SPEAKER_1`… become `A`, `B`… as OpenAI labels them. */
function speakerLetter(speaker: string | undefined, order: Map<string, string>): string {
  const key = speaker ?? 'SPEAKER_0';
  let letter = order.get(key);
  if (!letter) {
    const n = order.size;
    letter = n < 26 ? String.fromCharCode(65 + n) : `S${n + 1}`;
    order.set(key, letter);
  }
  return letter;
}

function diarized(result: JobResult): Record<string, unknown> {
  const order = new Map<string, string>();
  return {
    task: 'transcribe',
    duration: result.duration ?? 0,
    text: result.text ?? '',
    segments: segmentsOf(result).map((s, i) => ({
      type: 'transcript.text.segment',
      id: `seg_${i}`,
      start: s.start,
      end: s.end,
      text: s.text.trim(),
      // A speaker recognised from the account's speaker library goes by its name, as OpenAI's known speakers do.
      speaker: (s.speaker && result.speaker_names?.[s.speaker]) || speakerLetter(s.speaker, order),
    })),
    usage: usage(result),
  };
}

function cues(result: JobResult, separator: ',' | '.'): string[] {
  return segmentsOf(result)
    .filter((s) => s.text.trim() !== '')
    .map((s) => `${timestamp(s.start, separator)} --> ${timestamp(s.end, separator)}\n${s.text.trim()}\n`);
}

/** The response body for a format: an object for the JSON formats, a string otherwise. */
export function openAiTranscript(result: JobResult, format: OpenAiResponseFormat, options: OpenAiTranscriptOptions): string | Record<string, unknown> {
  switch (format) {
    case 'json':
      return { text: result.text ?? '', usage: usage(result) };
    case 'verbose_json':
      return verbose(result, options);
    case 'diarized_json':
      return diarized(result);
    case 'text':
      return `${result.text ?? ''}\n`;
    case 'srt':
      return cues(result, ',').map((cue, i) => `${i + 1}\n${cue}\n`).join('');
    case 'vtt':
      return `WEBVTT\n\n${cues(result, '.').map((cue) => `${cue}\n`).join('')}`;
  }
}

/** The segments' texts as stream=true sends them: one `transcript.text.delta` each, the first without a space. */
export function transcriptDeltas(result: JobResult): string[] {
  return segmentsOf(result)
    .map((s) => s.text.trim())
    .filter(Boolean)
    .map((text, i) => (i === 0 ? text : ` ${text}`));
}
