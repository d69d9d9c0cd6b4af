/**
 * The transcript export formats and the subtitle/JSON layouts. Pure: shared by the service, the CLI and the renderer
 * (which lists TRANSCRIPT_FORMATS as its export buttons and watch-folder checkboxes). Every export is made by
 * renderTranscript (common/transcript-export.ts); the readable TXT and the DOCX are laid out by
 * common/transcript-readable.ts and common/transcript-docx.ts. Subtitle cues follow common broadcast guidance: at
 * most 2 lines of 42 characters, at most 7 seconds, a new cue at each speaker change or pause of 1.5 s or more.
 */
import type { JobResult, TranscriptSegment, TranscriptWord } from './api-types.js';
import { singleLine } from './transcript-readable.js';

/** Every export format, in the order people are offered them: the export route's, a watch folder's, the CLI's. */
export const TRANSCRIPT_FORMATS = ['txt', 'srt', 'vtt', 'json', 'docx'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** The formats made of subtitle cues: the only ones max_chars_per_line and max_lines apply to. */
export const SUBTITLE_FORMATS: readonly TranscriptFormat[] = ['srt', 'vtt'];

/** Cue limits. Defaults: 42 characters per line, 2 lines, 7 s, new cue after a 1.5 s pause. */
export const CUE_LIMITS = { lineChars: 42, lines: 2, seconds: 7, pauseSeconds: 1.5 } as const;

/** What a subtitle export may change (the export route's max_chars_per_line and max_lines). */
export interface CueOptions {
  lineChars?: number;
  lines?: number;
}

export const TRANSCRIPT_CONTENT_TYPES: Record<TranscriptFormat, string> = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  json: 'application/json; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export interface Cue {
  start: number;
  end: number;
  /** Lines of the cue (at most max_lines, unless one word is longer than a line); with a `labelOf`, the first begins with the speaker's label. */
  lines: string[];
  speaker?: string;
}

/**
 * The label SRT shows before a speaker's cue. SRT has no voice markup, so the label is part of the cue's text and
 * counts in max_chars_per_line like any word (a subtitle editor would flag the line otherwise).
 */
function srtLabel(speaker: string): string {
  return `[${singleLine(speaker)}]`;
}

/** SRT has no escapes: an arrow in the text would read as a cue's timing line to some players. */
function srtText(text: string): string {
  return text.replaceAll('-->', '->');
}

export function toSrt(result: JobResult, cueOptions: CueOptions = {}): string {
  return buildCues(result, cueOptions, srtLabel)
    .map((cue, i) => `${i + 1}\n${timestamp(cue.start, ',')} --> ${timestamp(cue.end, ',')}\n${cue.lines.map(srtText).join('\n')}\n`)
    .join('\n');
}

export function toVtt(result: JobResult, cueOptions: CueOptions = {}): string {
  const cues = buildCues(result, cueOptions).map((cue) => {
    const text = cue.lines.map(escapeVtt).join('\n');
    return `${timestamp(cue.start, '.')} --> ${timestamp(cue.end, '.')}\n${cue.speaker ? `<v ${escapeVtt(singleLine(cue.speaker))}>${text}` : text}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}

/** The transcript fields of the result, pretty-printed (artifacts are not part of a transcript). */
export function toJson(result: JobResult): string {
  const { artifacts: _artifacts, ...transcript } = result;
  return `${JSON.stringify(transcript, null, 2)}\n`;
}

/** `HH:MM:SS,mmm` (SRT, separator ',') or `HH:MM:SS.mmm` (WebVTT, '.'). */
export function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

interface TimedWord {
  word: string;
  start: number;
  end: number;
  speaker?: string;
}

/**
 * Subtitle cues from word timings when present, else from segments (times shared by character count). `labelOf`
 * gives text shown before each speaker's cue (SRT's `[name]`): it is laid out as the cue's first word, so it counts
 * in the line and cue lengths. Without it (WebVTT's `<v name>` is markup, not text) the lines hold words only.
 */
export function buildCues(result: JobResult, cueOptions: CueOptions = {}, labelOf?: (speaker: string) => string): Cue[] {
  const limits = { lineChars: cueOptions.lineChars ?? CUE_LIMITS.lineChars, lines: cueOptions.lines ?? CUE_LIMITS.lines };
  const words = result.words?.length ? result.words.map(cleanWord) : wordsFromSegments(result);
  const cues: Cue[] = [];
  let group: TimedWord[] = [];
  const maxChars = limits.lineChars * limits.lines;
  /**
   * The cue's text as laid out: the label and the words. A label that leaves no room for the cue's first word within
   * the limits (a long name on one short line) is left out: a cue of the name alone would say nothing.
   */
  const shown = (words: readonly TimedWord[]): string[] => {
    const texts = words.map((w) => w.word);
    const speaker = words[0]?.speaker;
    if (!labelOf || !speaker) return texts;
    const label = labelOf(speaker);
    return wrapLines([label, texts[0]!], limits).length <= limits.lines ? [label, ...texts] : texts;
  };
  const flush = (): void => {
    if (group.length === 0) return;
    const first = group[0]!;
    const cue: Cue = { start: first.start, end: group[group.length - 1]!.end, lines: wrapLines(shown(group), limits) };
    if (first.speaker) cue.speaker = first.speaker;
    cues.push(cue);
    group = [];
  };
  for (const word of words) {
    if (!word.word) continue;
    const first = group[0];
    const last = group[group.length - 1];
    if (first && last) {
      const candidate = shown([...group, word]);
      const chars = candidate.reduce((n, text) => n + text.length + 1, -1);
      const breakHere =
        word.speaker !== first.speaker ||
        word.end - first.start > CUE_LIMITS.seconds ||
        word.start - last.end >= CUE_LIMITS.pauseSeconds ||
        chars > maxChars ||
        wrapLines(candidate, limits).length > limits.lines;
      if (breakHere) flush();
    }
    group.push(word);
  }
  flush();
  // Cues never overlap, and each lasts at least a moment.
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i]!;
    const next = cues[i + 1];
    if (next && cue.end > next.start) cue.end = next.start;
    if (cue.end <= cue.start) cue.end = cue.start + 0.001;
  }
  return cues;
}

function cleanWord(w: TranscriptWord): TimedWord {
  const out: TimedWord = { word: w.word.trim(), start: w.start, end: w.end };
  if (w.speaker) out.speaker = w.speaker;
  return out;
}

/** Approximate word times inside each segment, in proportion to characters. */
function wordsFromSegments(result: JobResult): TimedWord[] {
  const segments: TranscriptSegment[] = result.segments?.length
    ? result.segments
    : result.text?.trim()
      ? [{ id: 0, start: 0, end: result.duration ?? estimateSeconds(result.text), text: result.text }]
      : [];
  return segments.flatMap((segment) => {
    const tokens = segment.text.trim().split(/\s+/).filter(Boolean);
    const totalChars = tokens.reduce((n, t) => n + t.length + 1, 0);
    const span = Math.max(0, segment.end - segment.start);
    let at = 0;
    return tokens.map((token) => {
      const start = segment.start + (span * at) / totalChars;
      at += token.length + 1;
      const word: TimedWord = { word: token, start, end: segment.start + (span * at) / totalChars };
      if (segment.speaker) word.speaker = segment.speaker;
      return word;
    });
  });
}

/** A reading pace of about 15 characters per second, for text without any times. */
function estimateSeconds(text: string): number {
  return Math.max(1, text.trim().length / 15);
}

/**
 * Breaks words into at most `limits.lines` lines of `limits.lineChars` (default CUE_LIMITS): lines are balanced
 * (the breaks that make the longest line shortest). Returns more lines than allowed only when the words cannot fit
 * (the caller splits); a single word longer than a line stands on a line of its own.
 */
export function wrapLines(words: string[], limits: Required<CueOptions> = CUE_LIMITS): string[] {
  const { lineChars, lines: maxLines } = limits;
  const text = words.join(' ');
  if (text.length <= lineChars) return [text];
  const greedy: string[] = [];
  for (const word of words) {
    const last = greedy[greedy.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= lineChars) greedy[greedy.length - 1] = `${last} ${word}`;
    else greedy.push(word);
  }
  if (greedy.length > maxLines || greedy.length < 2) return greedy;
  // As many lines as greedy needs, with the breaks chosen so the longest line is as short as it can be.
  const count = greedy.length;
  let best: string[] = greedy;
  let bestLongest = Math.max(...greedy.map((l) => l.length));
  const place = (from: number, left: number, acc: string[]): void => {
    if (left === 1) {
      const line = words.slice(from).join(' ');
      if (line.length > lineChars) return;
      const candidate = [...acc, line];
      const longest = Math.max(...candidate.map((l) => l.length));
      if (longest < bestLongest) [best, bestLongest] = [candidate, longest];
      return;
    }
    for (let i = from + 1; i <= words.length - left + 1; i++) {
      const line = words.slice(from, i).join(' ');
      if (line.length > lineChars) break;
      place(i, left - 1, [...acc, line]);
    }
  };
  if (words.length <= 64) place(0, count, []);
  return best;
}

/** WebVTT's escapes for cue text and a voice's name: `&`, `<`, `>` (so no `-->` and no markup can appear). */
function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
