/**
 * Who is who on the other side of a meeting capture (docs/capture.md, docs/speakers.md). The microphone is the local
 * person, "You", always one speaker; the system's output may carry several people. When the diarization models are
 * installed (pyannote segmentation and a speaker embedding, the ones ordinary diarized jobs use):
 * - live, each finished utterance of the other side gets a provisional speaker ("Other side 1", …) from an online
 *   clustering of its voice (engines/capture/online-speakers.ts), at most one embedding per utterance and none when
 *   the speaker process is still busy with the previous one;
 * - when the capture stops, the other side's channel of the whole recording is diarized (the same clustering as an
 *   ordinary job), its speakers numbered in the order they first speak, and each speaker's voice matched against the
 *   account's speaker library: a recognised voice is named as in an ordinary job (`speaker_names`), and every voice is
 *   kept with the job so that naming a speaker there teaches the library. These labels replace the live ones.
 * Without the models the other side is one speaker, "Other side", and the job's result says why
 * (`speaker_diarization`). The stage runs before the capture's journal is removed, so a capture killed while it runs
 * is diarized again, to the same speakers, when it is saved at the next start (capture-recovery.ts).
 */
import type { JobResult } from '../../common/api-types.js';
import { CAPTURE_SPEAKERS } from '../../common/capture-protocol.js';
import { matchSpeakers, type KnownSpeaker, type RecordingVoice } from '../../common/speaker-matching.js';
import { speakerAt, type DiarizationModels, type SpeakerTurn } from '../../engines/asr/diarization.js';
import { SpeakerProcess } from '../../engines/capture/speaker-process.js';
import type { ProcessLauncher } from '../../engines/worker/process-launcher.js';
import type { CaptureFinal } from './capture-journal.js';
import type { Log } from '../../common/log.js';

/** What the capture needs to tell the other side's speakers apart. */
export interface CaptureSpeakerDeps {
  /** The installed diarization models, or null when either is missing. */
  models(): DiarizationModels | null;
  /** The account's speaker library as the matcher needs it (jobs/transcripts/speaker-library.ts knownSpeakers). */
  knownSpeakers(accountId: string): Promise<KnownSpeaker[]>;
  launcher?: ProcessLauncher;
}

/** Without the speaker models: the other side is one speaker. */
export const NO_SPEAKER_MODELS: CaptureSpeakerDeps = { models: () => null, knownSpeakers: () => Promise.resolve([]) };

/** The channel of the capture's recording that holds the other side (left the microphone, right the system). */
export const OTHER_SIDE_CHANNEL = 1;

/** The label of the other side's speaker `n` (from 1). */
export function otherSideLabel(n: number): string {
  return `${CAPTURE_SPEAKERS.system} ${n}`;
}

/** How the capture's job labels the other side. */
export interface OtherSideLabels {
  /** The speaker of a final of the other side. */
  speakerOf(final: CaptureFinal): string;
  /** Recognised voices, label → the library's name (absent when none). */
  speakerNames?: Record<string, string>;
  /** Each diarized speaker's voice, under its label. */
  voices: RecordingVoice[];
  diarization: NonNullable<JobResult['speaker_diarization']>;
}

export const NOT_DIARIZED_MESSAGE =
  'the speaker models (pyannote segmentation and a speaker embedding) are not installed, so the other side is one speaker; install both under Models to tell its voices apart';

/** The other side as one speaker, with the reason. */
export function oneOtherSide(diarization: OtherSideLabels['diarization']): OtherSideLabels {
  return { speakerOf: () => CAPTURE_SPEAKERS.system, voices: [], diarization };
}

/**
 * Diarization's speakers renamed "Other side 1", "Other side 2"… in the order they first speak (sherpa-onnx numbers
 * them by cluster), and each final of the other side given the speaker it overlaps most.
 */
export function labelTurns(turns: readonly SpeakerTurn[]): { turns: SpeakerTurn[]; labelOf: Map<string, string> } {
  const labelOf = new Map<string, string>();
  for (const turn of [...turns].sort((a, b) => a.start - b.start || a.end - b.end)) {
    if (!labelOf.has(turn.speaker)) labelOf.set(turn.speaker, otherSideLabel(labelOf.size + 1));
  }
  return { turns: turns.map((t) => ({ ...t, speaker: labelOf.get(t.speaker)! })), labelOf };
}

/**
 * Diarizes the other side of the recording at `path` and names its speakers (see the docblock). `signal` puts the
 * stage off (the service is shutting down): the speaker process is ended and the promise rejects with the signal's
 * reason, so that the caller keeps the capture's journal and the next start diarizes it.
 */
export async function diarizeOtherSide(path: string, accountId: string, deps: CaptureSpeakerDeps, log: Log, signal?: AbortSignal): Promise<OtherSideLabels> {
  const models = deps.models();
  if (!models) return oneOtherSide({ status: 'not_available', message: NOT_DIARIZED_MESSAGE });
  if (signal?.aborted) throw signal.reason;
  const process = new SpeakerProcess(models, log, deps.launcher);
  const putOff = (): void => process.close();
  signal?.addEventListener('abort', putOff, { once: true });
  try {
    const found = await process.diarize(path, OTHER_SIDE_CHANNEL);
    const { turns, labelOf } = labelTurns(found.turns);
    const voices = found.voices.map((v) => ({ ...v, speaker: labelOf.get(v.speaker) ?? v.speaker }));
    const matches = voices.length > 0 ? matchSpeakers(voices, await deps.knownSpeakers(accountId)) : [];
    return {
      speakerOf: (final) => (turns.length > 0 ? (speakerAt(turns, final.start, final.end) ?? CAPTURE_SPEAKERS.system) : CAPTURE_SPEAKERS.system),
      ...(matches.length > 0 ? { speakerNames: Object.fromEntries(matches.map((m) => [m.speaker, m.name])) } : {}),
      voices,
      diarization: { status: 'diarized', speakers: labelOf.size },
    };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    log.info(`the other side's speakers could not be told apart: ${(error as Error).message}`);
    return oneOtherSide({ status: 'failed', message: `the other side's speakers could not be told apart (${(error as Error).message}), so it is one speaker` });
  } finally {
    signal?.removeEventListener('abort', putOff);
    process.close();
  }
}

