/**
 * The transcript of a meeting capture: the finals of both sides in time order, each segment labelled with its side's
 * speaker ("You" for the microphone, "Other side" for the system's output; common/capture-protocol.ts), so the
 * transcript workbench shows who spoke and the person can rename or split the other side like any speaker.
 */
import type { JobResult } from '../../common/api-types.js';
import { CAPTURE_SPEAKERS } from '../../common/capture-protocol.js';
import { buildTranscript, normalizeSpaces, type RecognizedPiece } from '../../engines/asr/transcript.js';
import type { CaptureFinal } from './capture-journal.js';

export function captureTranscript(finals: CaptureFinal[], options: { duration: number; language: string | null; granularity: 'word' | 'segment' }): Omit<JobResult, 'artifacts'> {
  const spoken = finals
    .filter((f) => normalizeSpaces(f.text) !== '' && f.start < options.duration)
    .sort((a, b) => a.start - b.start || a.end - b.end || (a.side === 'microphone' ? -1 : 1));
  const pieces: RecognizedPiece[] = spoken.map((f) => ({ start: f.start, end: Math.min(f.end, options.duration), text: f.text, ...(f.words ? { words: f.words } : {}) }));
  const result = buildTranscript(pieces, { duration: options.duration, language: options.language, responseFormat: 'verbose_json', granularity: options.granularity });
  const segments = (result.segments ?? []).map((segment, i) => ({ ...segment, speaker: CAPTURE_SPEAKERS[spoken[i]!.side] }));
  return { ...result, segments };
}
