/**
 * Times a language model cites (`[mm:ss]`, or `[h:mm:ss]`) checked against the transcript's segments. A model copies
 * times well but not always: a cited time that is a segment's start (as the transcript lines show it, whole seconds)
 * stands; one that falls inside a segment is moved to that segment's start; one outside the recording is removed from
 * the text. Every citation left in the text names a segment, so a click on it seeks the player to where that segment
 * begins.
 */
import type { RevisionSegment } from '../../common/transcript-types.js';
import { clock } from './ai-chunks.js';

export interface Citation {
  /** As the text shows it after checking: `mm:ss`. */
  time: string;
  /** The segment's start, in seconds (where the player seeks). */
  seconds: number;
  segment_index: number;
}

const CITED = /\[(?:(\d{1,2}):)?(\d{1,3}):(\d{2})\]/g;

/** The segment a time in whole seconds names, or null when it is outside every segment. */
function segmentAt(segments: readonly RevisionSegment[], second: number): RevisionSegment | null {
  const exact = segments.find((s) => Math.floor(s.start) === second);
  if (exact) return exact;
  return segments.find((s) => s.start <= second && second < s.end) ?? null;
}

/** The text with every citation checked (moved to its segment's start, or removed), and the citations, in order. */
export function checkCitations(text: string, segments: readonly RevisionSegment[]): { text: string; citations: Citation[] } {
  const spoken = segments.filter((s) => s.text.trim() !== '');
  const citations: Citation[] = [];
  const checked = text.replace(CITED, (_match, h: string | undefined, m: string, s: string) => {
    const second = Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s);
    const segment = Number(s) < 60 ? segmentAt(spoken, second) : null;
    if (!segment) return '';
    const time = clock(segment.start);
    citations.push({ time, seconds: segment.start, segment_index: segment.index });
    return `[${time}]`;
  });
  return { text: checked.replace(/[ \t]{2,}/g, ' ').replace(/ +\n/g, '\n').trim(), citations };
}
