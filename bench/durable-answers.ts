/**
 * What it costs that an acknowledged change survives a power cut (store/durability.ts): trivial speech-to-text jobs
 * POSTed over loopback (test engine, the POST held until the job succeeded, CONCURRENCY at a time) against a service
 * whose answers wait for the fsync of the WAL (the default) and one whose answers do not (`durableAnswers: false`),
 * alternating ROUNDS times on fresh data dirs in the same run. Prints one JSON line: jobs/s of each (medians), their
 * ratio, and the fsyncs per job (group commit shares one between the answers waiting at that moment).
 * Usage: node --import tsx bench/durable-answers.ts [N=400] [concurrency=8] [rounds=3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createService } from '../src-main/service/create-service.js';
import { testModelSource } from '../test/helpers/service.js';
import { round3 } from './_stats.js';
import { silentLog } from '../src-main/common/log.js';

process.env.VOXDESK_TEST_ENGINES = '1';
const N = Number(process.argv[2] ?? 400);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.argv[4] ?? 3);
const AUDIO = new Uint8Array(2000);

async function run(durableAnswers: boolean): Promise<{ jobsPerSecond: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-durable-'));
  const service = await createService({ dataDir, port: 0, workers: 2, durableAnswers, maxConcurrentUploads: CONCURRENCY, extraModelSources: [testModelSource], log: silentLog });
  const key = await service.keys.createKey('bench');
  const post = async (): Promise<void> => {
    const form = new FormData();
    form.append('model', 'test-asr');
    form.append('file', new Blob([AUDIO]), 'a.wav');
    const response = await fetch(`${service.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    if (response.status !== 200) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (let i = 0; i < 20; i += 1) await post();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) {
          next += 1;
          await post();
        }
      }),
    );
    return { jobsPerSecond: N / ((performance.now() - started) / 1000) };
  } finally {
    await service.close(0);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const durable: number[] = [];
const unsynced: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  // Alternate which goes first, so both see the same load from the rest of the machine.
  if (round % 2 === 0) {
    durable.push((await run(true)).jobsPerSecond);
    unsynced.push((await run(false)).jobsPerSecond);
  } else {
    unsynced.push((await run(false)).jobsPerSecond);
    durable.push((await run(true)).jobsPerSecond);
  }
}
console.log(
  JSON.stringify({
    bench: 'durable-answers',
    jobs: N,
    concurrency: CONCURRENCY,
    durable_jobs_per_s: round3(median(durable)),
    unsynced_jobs_per_s: round3(median(unsynced)),
    ratio: round3(median(durable) / median(unsynced)),
    rounds: durable.map((d, i) => round3(d / unsynced[i]!)),
  }),
);
