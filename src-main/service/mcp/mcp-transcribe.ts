/**
 * The `transcribe_file` tool's work: the file uploaded as an ordinary speech-to-text job, then (unless the assistant
 * asked not to wait) followed until it ends, with progress reported as the job reports it. A call the assistant
 * cancels cancels its job, so nothing keeps running (and charging) for a question nobody waits for.
 *
 * The upload asks for the job at once (`?wait=false`): a held POST would leave the assistant without
 * progress for up to the whole hold window, and keep a `wait: false` call waiting. No progress is sent as the job
 * ends: the answer says so, and a notification written just before the answer reaches SDK clients after they stopped
 * listening (typescript-sdk#2580), as an error.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { ApiClient } from '../../common/api-client.js';
import type { Job } from '../../common/api-types.js';
import { isTerminal } from '../../common/job-states.js';

/** How often a job is asked for while the tool waits. */
const POLL_MS = 500;

/** Reports the job's progress (0..1) to the assistant. */
export type Progress = (fraction: number, message: string) => Promise<void>;

export interface TranscribeArgs {
  path: string;
  model?: string | undefined;
  language?: string | undefined;
  wait: boolean;
}

async function defaultAsrModel(client: ApiClient): Promise<string> {
  const models = await client.listModels({ capability: 'asr' });
  const model = models.find((m) => m.provider === 'local') ?? models[0];
  if (!model) throw new Error('model_unavailable: no speech-to-text model is available; install one in Voxdesk (Models)');
  return model.id;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      done();
    }, { once: true });
  });
}

export async function transcribeFile(client: ApiClient, args: TranscribeArgs, signal: AbortSignal, progress?: Progress): Promise<Job> {
  const path = resolve(args.path);
  const facts = await stat(path).catch(() => null);
  if (!facts) throw new Error(`file_required: ${path} does not exist`);
  if (!facts.isFile()) throw new Error(`file_required: ${path} is not a file`);
  const model = args.model ?? (await defaultAsrModel(client));
  const params = args.language ? { language: args.language } : {};
  let job = await client.transcribe({ file: await openAsBlob(path), filename: basename(path) }, { model, params }, { wait: false });
  if (!args.wait) return job;
  let reported = -1;
  while (!isTerminal(job.status)) {
    if (signal.aborted) {
      await client.cancelJob('speech-to-text', job.id).catch(() => {});
      throw new Error(`cancelled: the transcription was cancelled (job ${job.id})`);
    }
    const fraction = job.progress ?? 0;
    if (progress && fraction !== reported) {
      reported = fraction;
      await progress(fraction, job.error_code ?? job.status);
    }
    await sleep(POLL_MS, signal);
    if (!signal.aborted) job = await client.getJob('speech-to-text', job.id);
  }
  return job;
}
