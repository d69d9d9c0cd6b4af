/**
 * What forwarding costs: the latency of a job sent to the local service and forwarded to a hosted instance
 * (submit, hosted hold, mirror, artifact download, local commit) against the same job posted directly to the
 * hosted instance, in the same run; and jobs forwarded per second with many submitted at once. Two real services
 * on loopback; jobs: espeak-ng TTS of a short sentence (real engine) and the job engine's test engine (no work).
 * Prints one JSON line per workload.
 * `added_ms_paired` is the median of the N differences of each forwarded run and the direct run just before it: on a
 * shared machine it moves less with the load than the difference of the two medians (`added_ms`).
 * Run: node --import tsx bench/remote-forward.ts [N=30] [M=40]
 */
import { performance } from 'node:perf_hooks';
import type { Job } from '../src-main/common/api-types.js';
import { startTestService, testModelSource } from '../test/helpers/service.js';
import { startForwardingTo } from '../test/helpers/local-instance.js';

const N = Number(process.argv[2] ?? 30);
const M = Number(process.argv[3] ?? 40);
const WARMUP = 3;

async function speak(base: string, key: string, model: string, params: Record<string, unknown>): Promise<Job> {
  const response = await fetch(`${base}/v1/text-to-speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, text: 'Hello from the benchmark.', params }),
  });
  const job = (await response.json()) as Job;
  if (job.status !== 'succeeded') throw new Error(`job ${job.id} ended ${job.status} ${job.error_code ?? ''}`);
  return job;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Direct and forwarded runs alternate, so load from elsewhere on the machine hits both alike; medians. */
async function compare(direct: () => Promise<unknown>, forwarded: () => Promise<unknown>): Promise<{ direct: number; forwarded: number; paired: number }> {
  for (let i = 0; i < WARMUP; i++) await Promise.all([direct(), forwarded()]);
  const times = { direct: [] as number[], forwarded: [] as number[] };
  for (let i = 0; i < N; i++) {
    let start = performance.now();
    await direct();
    times.direct.push(performance.now() - start);
    start = performance.now();
    await forwarded();
    times.forwarded.push(performance.now() - start);
  }
  return { direct: median(times.direct), forwarded: median(times.forwarded), paired: median(times.forwarded.map((f, i) => f - times.direct[i]!)) };
}

const hosted = await startTestService({ extraModelSources: [testModelSource], holdSeconds: 60, workers: 1 });
const local = await startForwardingTo(hosted, { holdSeconds: 60 });
try {
  const workloads: [string, string, Record<string, unknown>][] = [
    ['espeak-tts', 'espeak-ng', {}],
    ['test-engine', 'test-tts', { behaviour: 'succeed', artifact: true }],
  ];
  for (const [name, model, params] of workloads) {
    const { direct, forwarded, paired } = await compare(
      () => speak(hosted.url, hosted.key, model, params),
      () => speak(local.url, local.key, `remote:${model}`, params),
    );
    const start = performance.now();
    await Promise.all(Array.from({ length: M }, () => speak(local.url, local.key, `remote:${model}`, params)));
    const seconds = (performance.now() - start) / 1000;
    process.stdout.write(
      `${JSON.stringify({
        bench: 'remote-forward',
        workload: name,
        n: N,
        direct_median_ms: +direct.toFixed(1),
        forwarded_median_ms: +forwarded.toFixed(1),
        added_ms: +(forwarded - direct).toFixed(1),
        added_ms_paired: +paired.toFixed(1),
        ratio: +(forwarded / direct).toFixed(2),
        concurrent_jobs: M,
        forwarded_jobs_per_second: +(M / seconds).toFixed(1),
        runner_concurrency: local.remote.options.concurrency,
        hosted_workers: 1,
      })}\n`,
    );
  }
} finally {
  await local.stop();
  await hosted.stop();
}
