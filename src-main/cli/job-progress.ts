/** Polls jobs and batches until they finish, drawing a progress bar on stderr (never stdout: results go there). */
import cliProgress from 'cli-progress';
import type { Batch, Job } from '../common/api-types.js';
import type { ApiClient } from '../common/api-client.js';
import { isTerminal } from '../common/job-states.js';
import type { Product } from '../common/products.js';
import { personStream } from './output.js';

/** How often a job is polled. Default 300 ms. */
export const POLL_MS = 300;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function bar(label: string): cliProgress.SingleBar {
  const b = new cliProgress.SingleBar(
    { stream: personStream, format: `${label} [{bar}] {percentage}% {status}`, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  return b;
}

export async function waitForJob(client: ApiClient, product: Product, initial: Job, label: string): Promise<Job> {
  let job = initial;
  const progress = bar(label);
  progress.start(100, 0, { status: job.status });
  try {
    while (!isTerminal(job.status)) {
      await sleep(POLL_MS);
      job = await client.getJob(product, job.id);
      progress.update(Math.round((job.progress ?? 0) * 100), { status: job.error_code ?? job.status });
    }
    progress.update(100, { status: job.status });
    return job;
  } finally {
    progress.stop();
  }
}

export async function waitForBatch(client: ApiClient, product: Product, initial: Batch, label: string): Promise<Batch> {
  let batch = initial;
  const progress = bar(label);
  const done = (b: Batch): number => b.files.reduce((sum, f) => sum + ((f.status !== 'pending' && isTerminal(f.status)) ? 1 : (f.progress ?? 0)), 0);
  progress.start(batch.file_count, done(batch), { status: batch.status });
  try {
    while (batch.status !== 'complete') {
      await sleep(POLL_MS);
      batch = await client.getBatch(product, batch.id);
      progress.update(Math.round(done(batch) * 10) / 10, { status: `${batch.succeeded} done, ${batch.failed} failed` });
    }
    return batch;
  } finally {
    progress.stop();
  }
}
