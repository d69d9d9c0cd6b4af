/**
 * Assembles an engine's per-segment recognition into the spec's speech-to-text result: `text` always; with
 * response_format verbose_json also language, duration, segments and words, as timestamp_granularity asks.
 */
import type { JobResult, TranscriptSegment, TranscriptWord } from '../../common/api-types.js';

export type ResponseFormat = 'json' | 'verbose_json';
export type TimestampGranularity = 'word' | 'segment' | 'none';

/** One recognised stretch of audio; times are seconds from the start of the recording. */
export interface RecognizedPiece {
  start: number;
  end: number;
  text: string;
  /** Absent when the engine gives no word times. */
  words?: TranscriptWord[];
  /** The language the recognizer detected in this piece, when it tells (Whisper, SenseVoice). */
  language?: string | null;
}

export interface TranscriptOptions {
  duration: number;
  /** Null: the language detected in most of the spoken audio, if the recognizer tells (see voteLanguage). */
  language: string | null;
  responseFormat: ResponseFormat;
  granularity: TimestampGranularity;
}

export type TranscriptResult = Omit<JobResult, 'artifacts'>;

export function buildTranscript(pieces: RecognizedPiece[], options: TranscriptOptions): TranscriptResult {
  const spoken = pieces.map((p) => ({ ...p, text: normalizeSpaces(p.text) })).filter((p) => p.text !== '');
  const text = spoken.map((p) => p.text).join(' ');
  if (options.responseFormat === 'json') return { text };
  const result: TranscriptResult = { text, duration: round3(options.duration) };
  if (options.language) result.language = options.language;
  if (options.granularity === 'none') return result;
  result.segments = spoken.map(
    (p, id): TranscriptSegment => ({ id, start: round3(p.start), end: round3(p.end), text: p.text }),
  );
  if (options.granularity === 'word') {
    result.words = spoken.flatMap((p) => p.words ?? []).map((w) => ({ word: w.word, start: round3(w.start), end: round3(w.end) }));
  }
  return result;
}

export function emptyTranscript(options: TranscriptOptions): TranscriptResult {
  return buildTranscript([], options);
}

export function normalizeSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function round3(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
