/**
 * The transcript of a meeting capture: the finals of both sides in time order, each segment labelled with its
 * speaker — "You" for the microphone (common/capture-protocol.ts), and for the system's output the speaker the
 * other side's diarization gave it ("Other side 1", …) or "Other side" (capture-speakers.ts) — so the transcript
 * workbench shows who spoke and the person can rename or split them like any speaker.
 */
import type { JobResult } from '../../common/api-types.js';
import { CAPTURE_SPEAKERS } from '../../common/capture-protocol.js';
import { buildTranscript, normalizeSpaces, type RecognizedPiece } from '../../engines/asr/transcript.js';
import type { CaptureFinal } from './capture-journal.js';
import type { OtherSideLabels } from './capture-speakers.js';

export function captureTranscript(
  finals: CaptureFinal[],
  options: { duration: number; language: string | null; granularity: 'word' | 'segment' },
  otherSide: OtherSideLabels,
): Omit<JobResult, 'artifacts'> {
  const spoken = finals
    .filter((f) => normalizeSpaces(f.text) !== '' && f.start < options.duration)
    .sort((a, b) => a.start - b.start || a.end - b.end || (a.side === 'microphone' ? -1 : 1));
  const pieces: RecognizedPiece[] = spoken.map((f) => ({ start: f.start, end: Math.min(f.end, options.duration), text: f.text, ...(f.words ? { words: f.words } : {}) }));
  const result = buildTranscript(pieces, { duration: options.duration, language: options.language, responseFormat: 'verbose_json', granularity: options.granularity });
  const speakerOf = (f: CaptureFinal): string => (f.side === 'microphone' ? CAPTURE_SPEAKERS.microphone : otherSide.speakerOf(f));
  const segments = (result.segments ?? []).map((segment, i) => ({ ...segment, speaker: speakerOf(spoken[i]!) }));
  return { ...result, segments, ...(otherSide.speakerNames ? { speaker_names: otherSide.speakerNames } : {}), speaker_diarization: otherSide.diarization };
}
