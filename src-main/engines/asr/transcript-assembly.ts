/**
 * The one way a speech-to-text result is put together from recognised segments: the engine does it for what it
 * recognised, and the job engine does it from the segments committed to the store (a transcription that resumed
 * after a restart recognised only its tail; its result is built from every committed segment). Speakers, when
 * diarization ran, are labelled here too, so both give the same result for the same segments.
 */
import type { RecordingVoice } from '../../common/speaker-matching.js';
import { mergeFlags, segmentFlags } from './segment-guardrails.js';
import { labelSpeakers, splitSegmentsBySpeaker, type SpeakerTurn } from './diarization.js';
import { buildTranscript, type RecognizedPiece, type TranscriptOptions, type TranscriptResult } from './transcript.js';

/**
 * How the engine wants its committed segments assembled (EngineOutput.transcript): the transcript options it
 * derived from the params and the recording, and the speaker turns when diarization ran.
 */
export interface TranscriptPlan {
  options: TranscriptOptions;
  speakerTurns: SpeakerTurn[] | null;
  /** Speakers recognised from the account's speaker library: key → name (diarization-voices.ts, speaker-matching.ts). */
  speakerNames?: Record<string, string>;
  /** Each diarized speaker's voice, kept with the recording so that naming a speaker can keep it (docs/speakers.md). */
  voices?: RecordingVoice[];
  /** Segments this job committed in all (indexes 0 … segmentCount − 1): the job engine checks it has them all. */
  segmentCount: number;
}

/** The language detected in most of the spoken audio (seconds per language), or null when none was detected. */
export function voteLanguage(pieces: readonly RecognizedPiece[]): string | null {
  const seconds = new Map<string, number>();
  for (const piece of pieces) {
    if (piece.language && piece.text.trim()) seconds.set(piece.language, (seconds.get(piece.language) ?? 0) + (piece.end - piece.start));
  }
  let best: string | null = null;
  let most = -1;
  for (const [language, total] of seconds) {
    if (total > most) [best, most] = [language, total];
  }
  return best;
}

export function assembleTranscript(pieces: readonly RecognizedPiece[], options: TranscriptOptions, speakerTurns: SpeakerTurn[] | null, speakerNames?: Record<string, string>): TranscriptResult {
  const result = buildTranscript([...pieces], { ...options, language: options.language ?? voteLanguage(pieces) });
  if (speakerTurns) {
    labelSpeakers(result.words, speakerTurns);
    labelSpeakers(result.segments, speakerTurns);
    if (result.segments) result.segments = splitSegmentsBySpeaker(result.segments, result.words);
    if (speakerNames && Object.keys(speakerNames).length > 0) result.speaker_names = { ...speakerNames };
  }
  // What stays doubtful is marked, never dropped (segment-guardrails.ts).
  for (const segment of result.segments ?? []) {
    const flags = mergeFlags(segment.flags, segmentFlags(segment, options.guardrails));
    if (flags.length) segment.flags = flags;
    else delete segment.flags;
  }
  return result;
}
