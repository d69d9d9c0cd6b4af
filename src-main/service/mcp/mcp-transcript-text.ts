/**
 * A transcript as an assistant reads it: one line per segment, `[m:ss–m:ss] Speaker: text`, the speakers by the names
 * people gave them (the revision's speaker map), and the segments of a time range.
 */
import type { RevisionSegment } from '../../common/transcript-types.js';

/** 75.4 → "1:15", 3725 → "1:02:05". */
export function formatTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

type Segment = Pick<RevisionSegment, 'index' | 'start' | 'end' | 'text' | 'speaker'>;

/** The segments that overlap [start, end) (either bound may be left open); empty segments are left out. */
export function segmentsBetween<T extends Segment>(segments: readonly T[], start?: number, end?: number): T[] {
  return segments.filter((s) => s.text !== '' && (start === undefined || s.end > start) && (end === undefined || s.start < end));
}

export function formatTranscript(segments: readonly Segment[], speakers: Record<string, string>): string {
  return segments
    .map((s) => {
      const who = s.speaker ? `${speakers[s.speaker] ?? s.speaker}: ` : '';
      return `[${formatTime(s.start)}–${formatTime(s.end)}] ${who}${s.text}`;
    })
    .join('\n');
}
