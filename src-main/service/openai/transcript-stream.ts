/**
 * `stream=true` on POST /v1/audio/transcriptions: one `transcript.text.delta` per segment as the job commits it (the
 * checkpoints of docs/job-engine.md, the rows GET /v1/speech-to-text/{id}/segments pages through), then
 * `transcript.text.done` with the finished transcript's text. Reading the committed rows, not the worker's messages,
 * means a job that is retried after a crash, paused and resumed, or requeued after a restart of the worker streams
 * each segment exactly once, in order; a hosted job commits its rows when its result arrives, so its deltas come
 * then. Joined, the deltas are the done event's text (segments are joined by one space, as the transcript is).
 */
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { isTerminal } from '../../common/job-states.js';
import { transcriptDeltas } from '../../common/openai-transcript.js';
import type { AppDeps } from '../app-deps.js';
import type { SendEvent } from './event-stream.js';
import { jobFailure } from './openai-job.js';

/** Segments read per page of the store. */
const PAGE_SIZE = 200;
/** How often a waiting stream re-reads its job anyway (a safety net: job-changed events normally wake it). */
const WAIT_SLICE_MS = 60_000;

/**
 * Sends the job's segments as they are committed until the job is terminal. Returns quietly when the client went
 * away (`signal`); throws the job's failure as the error OpenAI's clients expect, or a shutdown notice.
 */
export async function streamTranscript(deps: AppDeps, accountId: string, job: Job, send: SendEvent, signal: AbortSignal): Promise<void> {
  let changed = true;
  let wake: (() => void) | null = null;
  const onChange = (changedJob: Job): void => {
    if (changedJob.id !== job.id) return;
    changed = true;
    wake?.();
  };
  const stop = AbortSignal.any([signal, deps.closing]);
  const onStop = (): void => wake?.();
  deps.jobs.events.on('job-changed', onChange);
  stop.addEventListener('abort', onStop);
  let after: number | null = null;
  let sent = 0;
  try {
    for (;;) {
      changed = false;
      // The status first: a job read as terminal has committed every segment it will ever have.
      const current = (await deps.jobs.getJob(accountId, 'speech-to-text', job.id)) ?? job;
      for (;;) {
        const page = await deps.jobs.listSegments(accountId, job.id, after, PAGE_SIZE);
        if (!page || page.next_after === after) break;
        after = page.next_after;
        for (const segment of page.data) send({ type: 'transcript.text.delta', delta: sent++ === 0 ? segment.text : ` ${segment.text}` });
      }
      if (isTerminal(current.status)) {
        if (current.status !== 'succeeded') throw jobFailure(current);
        const result = current.result ?? {};
        // A result that came without segment rows (none committed, none derivable) still streams its text.
        if (sent === 0) for (const delta of transcriptDeltas(result)) send({ type: 'transcript.text.delta', delta });
        send({ type: 'transcript.text.done', text: result.text ?? '' });
        return;
      }
      if (signal.aborted) return;
      if (deps.closing.aborted) {
        throw new ApiError('internal_error', `the service is shutting down; job ${job.id} finishes after it starts again (GET /v1/speech-to-text/${job.id})`);
      }
      if (!changed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, WAIT_SLICE_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  } finally {
    deps.jobs.events.off('job-changed', onChange);
    stop.removeEventListener('abort', onStop);
  }
}
