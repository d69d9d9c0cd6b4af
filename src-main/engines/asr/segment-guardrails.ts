/**
 * Checks of a recognised segment for what recognizers do wrong on long, real recordings (issue 29): Whisper-family
 * models loop ("thank you thank you thank you…") or invent text, and nothing said so. Each check is a pure function
 * of the segment's text and times, so every engine's segments get them, and what stays doubtful is marked in the
 * segment's `flags` (docs/transcripts.md, "Doubtful segments") instead of being dropped silently.
 *
 * - `repetition`: a run of 1 to 5 words said over and over (4 times in a row for a phrase, 6 for a single word).
 * - `compression_ratio`: the text compresses more than Whisper's own threshold allows (2.4 by default, the
 *   `compression_ratio_threshold` param): how Whisper itself recognises a loop it did not see word by word.
 * - `speech_rate`: more words per second than people speak (over 7.5 in a segment of half a second or more).
 * - `no_speech`: text over audio the voice-activity detector calls silence — measured by the engine, which has the
 *   samples (no-speech.ts), and committed with the segment; merged here with the text's flags.
 */
import { deflateSync } from 'node:zlib';

export type { SegmentFlag } from '../../common/api-types.js';
import type { SegmentFlag } from '../../common/api-types.js';

/** Every flag in the order a segment lists them. */
export const SEGMENT_FLAGS: readonly SegmentFlag[] = ['repetition', 'compression_ratio', 'speech_rate', 'no_speech'];

/** Whisper's default compression-ratio threshold (openai/whisper transcribe.py). */
export const COMPRESSION_RATIO_THRESHOLD = 2.4;
/** Words per second above anyone's speech: fast speakers reach 5–6; auctioneers about 7. */
export const MAX_WORDS_PER_SECOND = 7.5;
/** The shortest text whose compression ratio means anything (short texts barely compress or even grow). */
const MIN_COMPRESSIBLE_CHARS = 40;
const MIN_RATE_SECONDS = 0.5;

/** len(text) / len(zlib(text)) over its UTF-8 bytes, as Whisper computes it to catch a recognizer looping. */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length === 0) return 0;
  return bytes.length / deflateSync(bytes).length;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w !== '');
}

/** Whether some run of n words (n = 1…5) repeats back to back: 6 times for one word, 4 for a phrase. */
export function hasRepetition(text: string): boolean {
  const list = words(text);
  for (let n = 1; n <= 5; n++) {
    const needed = n === 1 ? 6 : 4;
    if (list.length < n * needed) break;
    for (let start = 0; start + n * needed <= list.length; start++) {
      let repeats = 1;
      while (start + (repeats + 1) * n <= list.length && sameRun(list, start, start + repeats * n, n)) repeats++;
      if (repeats >= needed) return true;
    }
  }
  return false;
}

function sameRun(list: readonly string[], a: number, b: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (list[a + i] !== list[b + i]) return false;
  return true;
}

export interface GuardrailOptions {
  compressionRatioThreshold?: number;
}

/** The doubts about one segment, in a fixed order; empty when none. */
export function segmentFlags(segment: { text: string; start: number; end: number }, options: GuardrailOptions = {}): SegmentFlag[] {
  const flags: SegmentFlag[] = [];
  const text = segment.text.trim();
  if (text === '') return flags;
  if (hasRepetition(text)) flags.push('repetition');
  if (text.length >= MIN_COMPRESSIBLE_CHARS && compressionRatio(text) > (options.compressionRatioThreshold ?? COMPRESSION_RATIO_THRESHOLD)) flags.push('compression_ratio');
  const seconds = segment.end - segment.start;
  if (seconds >= MIN_RATE_SECONDS && words(text).length / seconds > MAX_WORDS_PER_SECOND) flags.push('speech_rate');
  return flags;
}

/** The segment's flags: those the engine measured (`measured`) and those of its text, each once, in SEGMENT_FLAGS order. */
export function mergeFlags(measured: readonly SegmentFlag[] | undefined, fromText: readonly SegmentFlag[]): SegmentFlag[] {
  const all = new Set([...(measured ?? []), ...fromText]);
  return SEGMENT_FLAGS.filter((flag) => all.has(flag));
}
