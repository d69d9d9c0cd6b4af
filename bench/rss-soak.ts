/**
 * Memory over many jobs in a row (issue 14, goal 7): N eSpeak text-to-speech jobs, one after the other, through the
 * whole service (HTTP POST held until the result, SQLite, a worker process, an artifact file each), and the resident
 * memory of the service process and of its worker after 100, 500 and 1,000 jobs, with the service's V8 heap after a
 * full GC. The baseline is the same figure after the first 100 jobs (engines loaded, V8 warm); what matters is the
 * slope from there (KB per job): a leak of a map keyed by job id, a listener per job or a cache that keeps every
 * result grows it by the job, and shows as a steady slope instead of noise around zero.
 * Prints one JSON line. Usage: node --import tsx bench/rss-soak.ts [N=1000]
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Job } from '../src-main/common/api-types.js';
import type { JobEngine } from '../src-main/jobs/engine/job-service.js';
import { startTestService } from '../test/helpers/service.js';

const count = Number(process.argv[2] ?? 1000);
const CHECKPOINTS = [100, 500, 1000].filter((n) => n <= count);
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resident set of a process in MB (Linux /proc; the bench machine's). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.replace(/\D+/g, ' ').trim()) / 102.4) / 10 : NaN;
}

const svc = await startTestService({ holdSeconds: 240, workers: 1 });
try {
  const jobs = svc.service.jobs as JobEngine;
  await jobs.workersReady();
  const figures: Record<number, { service_rss_mb: number; service_heap_mb: number; worker_rss_mb: number }> = {};
  for (let i = 1; i <= count; i++) {
    const res = await fetch(`${svc.url}/v1/text-to-speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'espeak-ng', text: `Sentence number ${i} of a thousand, read aloud in a row.` }),
    });
    const job = (await res.json()) as Job;
    if (job.status !== 'succeeded') throw new Error(`job ${i} ended ${job.status} ${job.error_code ?? ''} ${job.error_message ?? ''}`);
    if (CHECKPOINTS.includes(i)) {
      gc();
      const [worker] = jobs.workerStats().pids;
      figures[i] = {
        service_rss_mb: rssMb(process.pid),
        service_heap_mb: Math.round(process.memoryUsage().heapUsed / 104_857.6) / 10,
        worker_rss_mb: worker ? rssMb(worker) : NaN,
      };
      process.stderr.write(`rss-soak: ${i} jobs ${JSON.stringify(figures[i])}\n`);
    }
  }
  const first = figures[CHECKPOINTS[0]!]!;
  const last = figures[CHECKPOINTS[CHECKPOINTS.length - 1]!]!;
  const jobsBetween = CHECKPOINTS[CHECKPOINTS.length - 1]! - CHECKPOINTS[0]!;
  const slope = (a: number, b: number): number => (jobsBetween > 0 ? Math.round(((b - a) * 1024 * 10) / jobsBetween) / 10 : NaN);
  console.log(
    JSON.stringify({
      bench: 'rss-soak',
      jobs: count,
      checkpoints: figures,
      baseline: `after ${CHECKPOINTS[0]} jobs`,
      service_rss_ratio: +(last.service_rss_mb / first.service_rss_mb).toFixed(3),
      worker_rss_ratio: +(last.worker_rss_mb / first.worker_rss_mb).toFixed(3),
      service_rss_kb_per_job: slope(first.service_rss_mb, last.service_rss_mb),
      service_heap_kb_per_job: slope(first.service_heap_mb, last.service_heap_mb),
      worker_rss_kb_per_job: slope(first.worker_rss_mb, last.worker_rss_mb),
      ...(figures[500] && figures[1000]
        ? {
            last_500_jobs_kb_per_job: {
              service_rss: Math.round(((figures[1000].service_rss_mb - figures[500].service_rss_mb) * 10240) / 500) / 10,
              service_heap: Math.round(((figures[1000].service_heap_mb - figures[500].service_heap_mb) * 10240) / 500) / 10,
              worker_rss: Math.round(((figures[1000].worker_rss_mb - figures[500].worker_rss_mb) * 10240) / 500) / 10,
            },
          }
        : {}),
    }),
  );
} finally {
  await svc.stop();
}
