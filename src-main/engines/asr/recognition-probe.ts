/**
 * Test instrumentation of speech recognition, inert unless its environment variables are set (tests and benchmarks
 * set them for the worker processes; a normal run never does):
 * - `VOXDESK_TEST_RECOGNITION_LOG=FILE`: one line `{"job","index","start","end"}` appended per segment the recognizer
 *   decoded, and `{"job","resume_at"}` when a run resumes. This is how tests prove that a committed segment is never
 *   recognised again after a restart: a count kept by the engine itself, not inferred from timing.
 * - `VOXDESK_TEST_SEGMENT_DELAY_MS=N`: waits N ms after each segment, so a test has time to kill the service between
 *   two segments on a loaded machine (cancellation ends the wait at once).
 */
import { appendFileSync } from 'node:fs';
import { pause } from '../../common/pause.js';

function note(entry: Record<string, unknown>): void {
  const file = process.env.VOXDESK_TEST_RECOGNITION_LOG;
  if (file) appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

export function noteRecognised(jobId: string, index: number, start: number, end: number): void {
  note({ job: jobId, index, start, end });
}

export function noteResume(jobId: string, seconds: number): void {
  note({ job: jobId, resume_at: seconds });
}

export function segmentDelay(signal: AbortSignal): Promise<void> {
  const ms = Number(process.env.VOXDESK_TEST_SEGMENT_DELAY_MS ?? 0);
  return ms > 0 ? pause(ms, signal) : Promise.resolve();
}
