/**
 * Whether one more dictation frame may be used, when audio is already waiting for the recognizer. Two causes look
 * alike from the queue alone and must be told apart:
 * - a client sending faster than real time (streaming a file as fast as it can): it may run ahead of the clock by at
 *   most `maxBufferedSeconds` of audio waiting; beyond that its frames are refused, so memory stays bounded;
 * - a person speaking into a microphone while the machine is busy: the audio arrives in real time and the recognizer
 *   falls behind. Refusing their frames would lose what they said (from the text and from the recording, which holds
 *   only the frames used), so these are taken until the recognizer is `maxLagSeconds` behind — the memory bound of a
 *   recognizer that can never keep up.
 * A client counts as real time while the audio it sent is no more than `REAL_TIME_SLACK_SECONDS` ahead of the wall
 * clock since its first frame (a microphone's pre-roll, a socket flushing after a stall).
 */

/** How far ahead of the wall clock a client's audio may be and still count as real time (s). Default 2. */
export const REAL_TIME_SLACK_SECONDS = 2;

export interface FrameAdmissionInput {
  /** Bytes sent to the recognizer and not yet processed. */
  waitingBytes: number;
  /** Bytes of audio used so far in the session. */
  receivedBytes: number;
  frameBytes: number;
  bytesPerSecond: number;
  /** Wall-clock ms since the session's first frame arrived (0 for the first frame). */
  elapsedMs: number;
  /** Audio that may wait when the client runs ahead of real time (s). */
  maxBufferedSeconds: number;
  /** Audio that may wait for a recognizer behind a real-time client (s); at least maxBufferedSeconds. */
  maxLagSeconds: number;
}

export type FrameAdmission = { use: true } | { use: false; why: 'faster_than_real_time' | 'recognizer_behind' };

export function admitDictationFrame(input: FrameAdmissionInput): FrameAdmission {
  const waitingSeconds = (input.waitingBytes + input.frameBytes) / input.bytesPerSecond;
  if (waitingSeconds <= input.maxBufferedSeconds) return { use: true };
  const aheadSeconds = (input.receivedBytes + input.frameBytes) / input.bytesPerSecond - input.elapsedMs / 1000;
  if (aheadSeconds > REAL_TIME_SLACK_SECONDS) return { use: false, why: 'faster_than_real_time' };
  if (waitingSeconds > Math.max(input.maxLagSeconds, input.maxBufferedSeconds)) return { use: false, why: 'recognizer_behind' };
  return { use: true };
}
