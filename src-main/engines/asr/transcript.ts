/**
 * Assembles an engine's per-segment recognition into the spec's speech-to-text result: `text` always; with
 * response_format verbose_json always all of language, duration, segments and words (issue 32, point 1: a client
 * reads `result.words.map(…)` without a guard). timestamp_granularity chooses which arrays are filled: word fills
 * both, segment leaves words empty, none leaves both empty. Words come from the recognizer's token times where it
 * gives them; a segment without them gets its words spread evenly over its characters, each marked
 * `interpolated: true` (docs/api-conventions.md) — the last resort, never passed off as measured.
 */
import type { GuardrailOptions } from './segment-guardrails.js';
import type { JobResult, SegmentFlag, TranscriptSegment, TranscriptWord } from '../../common/api-types.js';

export type ResponseFormat = 'json' | 'verbose_json';
export type TimestampGranularity = 'word' | 'segment' | 'none';

const CJK_CHAR = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const WORDS = new RegExp(`[${CJK_CHAR}][\\p{P}]*|[^\\s${CJK_CHAR}]+`, 'gu');

/** The language of a result when nothing told it (ISO 639-2 "undetermined"): no recognizer report, no request. */
export const UNDETERMINED_LANGUAGE = 'und';

/** One recognised stretch of audio; times are seconds from the start of the recording. */
export interface RecognizedPiece {
  start: number;
  end: number;
  text: string;
  /** Absent when the engine gives no word times. */
  words?: TranscriptWord[];
  /** The language the recognizer detected in this piece, when it tells (Whisper, SenseVoice). */
  language?: string | null;
  /** Doubts the engine measured about this piece (`no_speech`: segment-guardrails.ts), kept on its segment. */
  flags?: SegmentFlag[];
}

export interface TranscriptOptions {
  duration: number;
  /** Null: the language detected in most of the spoken audio, if the recognizer tells (see voteLanguage). */
  language: string | null;
  responseFormat: ResponseFormat;
  granularity: TimestampGranularity;
  /** Thresholds of the doubtful-segment checks (segment-guardrails.ts); default theirs. */
  guardrails?: GuardrailOptions;
}

export type TranscriptResult = Omit<JobResult, 'artifacts'>;

export function buildTranscript(pieces: RecognizedPiece[], options: TranscriptOptions): TranscriptResult {
  const spoken = pieces.map((p) => ({ ...p, text: normalizeSpaces(p.text) })).filter((p) => p.text !== '');
  const text = spoken.map((p) => p.text).join(' ');
  if (options.responseFormat === 'json') return { text };
  const segments =
    options.granularity === 'none' ? [] : spoken.map((p, id): TranscriptSegment => ({ id, start: round3(p.start), end: round3(p.end), text: p.text, ...(p.flags?.length ? { flags: [...p.flags] } : {}) }));
  const words = options.granularity === 'word' ? spoken.flatMap((p) => (p.words?.length ? p.words.map(roundWord) : interpolateWords(p))) : [];
  return { text, language: options.language ?? UNDETERMINED_LANGUAGE, duration: round3(options.duration), segments, words };
}

function roundWord(w: TranscriptWord): TranscriptWord {
  return { word: w.word, start: round3(w.start), end: round3(w.end), ...(w.interpolated ? { interpolated: true } : {}), ...(w.confidence === undefined ? {} : { confidence: w.confidence }) };
}

/**
 * A segment's words with times spread over the segment in proportion to their length in characters (code points),
 * one after the other without gaps, each marked interpolated: the recognizer gave the text but no times for it.
 */
export function interpolateWords(piece: Pick<RecognizedPiece, 'start' | 'end' | 'text'>): TranscriptWord[] {
  // Words are what spaces separate, and each character of a script written without spaces (Chinese, Japanese).
  const tokens = normalizeSpaces(piece.text).match(WORDS) ?? [];
  const lengths = tokens.map((t) => [...t].length);
  const total = lengths.reduce((a, b) => a + b, 0);
  const span = Math.max(0, piece.end - piece.start);
  let before = 0;
  return tokens.map((word, i) => {
    const start = piece.start + (span * before) / total;
    before += lengths[i]!;
    const end = piece.start + (span * before) / total;
    return { word, start: round3(start), end: round3(end), interpolated: true };
  });
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
