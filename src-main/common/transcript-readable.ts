/**
 * Transcripts laid out for people rather than players (the `txt` and `docx` exports): a title, then one paragraph
 * per speaker turn headed by the speaker's name and the time it starts. Without speakers each segment is its own
 * paragraph, started by its time. Pure: the DOCX writer (common/transcript-docx.ts) lays out the same turns.
 */
import type { JobResult } from './api-types.js';

export interface SpeakerTurn {
  /** The speaker's name; undefined when the transcript has no speakers. */
  speaker?: string;
  start: number;
  end: number;
  text: string;
}

/** Consecutive segments of the same speaker joined into turns; every segment alone when there are no speakers. */
export function speakerTurns(result: JobResult): SpeakerTurn[] {
  const segments = (result.segments ?? []).filter((s) => s.text.trim() !== '');
  if (segments.length === 0) {
    const text = result.text?.trim() ?? '';
    return text ? [{ start: 0, end: result.duration ?? 0, text }] : [];
  }
  const withSpeakers = segments.some((s) => s.speaker);
  const turns: SpeakerTurn[] = [];
  for (const segment of segments) {
    const last = turns[turns.length - 1];
    const text = segment.text.trim();
    if (withSpeakers && last && last.speaker === segment.speaker) {
      last.text += ` ${text}`;
      last.end = segment.end;
    } else {
      turns.push({ ...(segment.speaker ? { speaker: segment.speaker } : {}), start: segment.start, end: segment.end, text });
    }
  }
  return turns;
}

/** Text as one line: control characters (CR, LF, tabs…) and runs of white space become one space, trimmed. */
export function singleLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/** `H:MM:SS` from one hour on, `MM:SS` before (whole seconds, rounded down). */
export function clockTime(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The readable text export: the title, a blank line, then "[time] Name" over each turn's text (blank-line separated). */
export function toReadableTxt(result: JobResult, title: string): string {
  const turns = speakerTurns(result);
  const withSpeakers = turns.some((t) => t.speaker);
  const body = withSpeakers
    ? turns.map((t) => `[${clockTime(t.start)}] ${singleLine(t.speaker ?? 'Unknown speaker')}\n${t.text}`).join('\n\n')
    : turns.map((t) => `[${clockTime(t.start)}] ${t.text}`).join('\n');
  return `${title}\n\n${body}${body ? '\n' : ''}`;
}
