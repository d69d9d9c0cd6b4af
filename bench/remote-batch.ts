/**
 * What forwarding a batch costs: a 50-text TTS batch posted to the local service (forwarded as ONE hosted batch:
 * one submission, one poller, items mirrored and artifacts downloaded) against the same batch posted directly to
 * the hosted instance, alternating in the same run; medians of the time until the batch is complete. Two real
 * services on loopback, the job engine's test engine (no work, a tiny artifact per item), so the figure is the
 * forwarding overhead itself. Prints one JSON line.
 * Run: node --import tsx bench/remote-batch.ts [N=5] [ITEMS=50]
 */
import { performance } from 'node:perf_hooks';
import type { Batch } from '../src-main/common/api-types.js';
import { startTestService, testModelSource } from '../test/helpers/service.js';
import { startForwardingTo } from '../test/helpers/local-instance.js';

const N = Number(process.argv[2] ?? 5);
const ITEMS = Number(process.argv[3] ?? 50);

async function call<T>(base: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Posts the batch and polls until it is complete; every item must succeed. */
async function batchRun(base: string, key: string, model: string): Promise<number> {
  const start = performance.now();
  const items = Array.from({ length: ITEMS }, (_, i) => ({ text: `Sentence number ${i}.`, name: `t${i}` }));
  const batch = await call<Batch>(base, key, 'POST', '/v1/text-to-speech/batch', { model, params: { behaviour: 'succeed', artifact: true }, items });
  for (;;) {
    const b = await call<Batch>(base, key, 'GET', `/v1/text-to-speech/batch/${batch.id}`);
    if (b.status === 'complete') {
      if (b.succeeded !== ITEMS) throw new Error(`batch ${b.id}: ${b.succeeded}/${ITEMS} succeeded`);
      return performance.now() - start;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const hosted = await startTestService({ extraModelSources: [testModelSource], workers: 1 });
const local = await startForwardingTo(hosted);
try {
  await batchRun(hosted.url, hosted.key, 'test-tts');
  await batchRun(local.url, local.key, 'remote:test-tts');
  const times = { direct: [] as number[], forwarded: [] as number[] };
  for (let i = 0; i < N; i++) {
    times.direct.push(await batchRun(hosted.url, hosted.key, 'test-tts'));
    times.forwarded.push(await batchRun(local.url, local.key, 'remote:test-tts'));
  }
  const direct = median(times.direct);
  const forwarded = median(times.forwarded);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'remote-batch',
      workload: 'test-engine-tts-batch',
      items: ITEMS,
      n: N,
      direct_median_ms: +direct.toFixed(1),
      forwarded_median_ms: +forwarded.toFixed(1),
      added_ms_per_item: +((forwarded - direct) / ITEMS).toFixed(1),
      ratio: +(forwarded / direct).toFixed(2),
      runner_concurrency: local.remote.options.concurrency,
      hosted_workers: 1,
    })}\n`,
  );
} finally {
  await local.stop();
  await hosted.stop();
}
