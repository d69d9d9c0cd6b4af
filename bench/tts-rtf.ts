/**
 * Text to speech speed: real-time factor (synthesis time / audio length) of eSpeak NG and of a sherpa-onnx VITS voice
 * (tiny random-weight model: it measures the pipeline, not a real voice), straight through the engines; then the
 * time to a finished job through the whole service (HTTP POST held until the result, SQLite, worker process).
 * JSON lines: `tts-rtf` per engine and text, `tts-job` for the service path: goal 5 of issue 14 is its
 * first_over_warm_p50 (the first job after the workers are ready against the warm jobs' median, same run), with the
 * first job's phases beside the warm median's, from the job's own timestamps: `intake` (request sent → job row),
 * `claim` (→ started), `run` (→ finished: worker, engine, settling), `answer` (→ the held POST's answer read), and
 * the CPU the first job used against the warm median's (first_over_warm_cpu: steadier on a busy machine).
 * TTS_BENCH_RUNS (default 20) jobs and engine runs; TTS_BENCH_JOB_ONLY=1 skips the engines-alone lines.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '../src-main/common/api-types.js';
import createEspeakEngine from '../src-main/engines/tts/espeak-engine.js';
import createSherpaTtsEngine from '../src-main/engines/tts/sherpa-tts-engine.js';
import { ttsFamilyDefinition } from '../src-main/engines/tts/tts-families.js';
import type { JobEngine } from '../src-main/jobs/engine/job-service.js';
import { startTestService } from '../test/helpers/service.js';
import { SHARED } from '../test/helpers/system.js';
import { testContext, ttsTask } from '../test/helpers/tts-context.js';
import { percentile, round3 } from './_stats.js';

const SHORT = 'The quick brown fox jumps over the lazy dog.';

/** Resident set of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.replace(/\D+/g, ' ').trim()) / 102.4) / 10 : NaN;
}

/**
 * One POST through this process's fetch to a bare node:http server, with the jobs' own headers: undici checks each
 * header value on its first use (an authorization value cost the first job 6 ms of webidl.converters.ByteString in
 * the client, in its intake phase, before the service saw the request).
 */
async function clientWarmUp(headers: Record<string, string>): Promise<void> {
  const server = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers, body: '{}' });
  await res.json();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
/**
 * CPU time a process has used, in ms, from the scheduler's own count in nanoseconds (/proc/PID/task/TID/schedstat,
 * summed over its threads): a job's CPU is steadier than its wall-clock time on a loaded machine, where the first
 * job's wall time is mostly waiting for a core.
 */
function cpuMs(pid: number, only?: (tid: string) => boolean): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (only && !only(tid)) continue;
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

type Phases = { intake: number; claim: number; run: number; answer: number };

/** Where a job's time went, in ms, from its own timestamps (millisecond precision) and the client's clock. */
function phasesOf(job: Job, sentAt: number, answeredAt: number): Phases {
  const created = Date.parse(job.created_at);
  const started = Date.parse(job.started_at!);
  const finished = Date.parse(job.finished_at!);
  return { intake: created - sentAt, claim: started - created, run: finished - started, answer: answeredAt - finished };
}

function medianPhases(all: Phases[]): Phases {
  const of = (key: keyof Phases) => percentile(all.map((p) => p[key]), 50);
  return { intake: of('intake'), claim: of('claim'), run: of('run'), answer: of('answer') };
}

const PARAGRAPH = Array.from({ length: 10 }, (_, i) => `This is sentence number ${i + 1} of a paragraph read aloud for the benchmark.`).join(' ');
const RUNS = Number(process.env.TTS_BENCH_RUNS ?? 20);
const work = mkdtempSync(join(tmpdir(), 'voxdesk-bench-tts-'));

const tiny = ttsFamilyDefinition('vits', {
  id: 'tiny-vits',
  dir: join(SHARED, 'models/tiny/tiny-vits'),
  languages: ['en'],
  files: { model: 'model.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt' },
});

try {
  const engines =
    process.env.TTS_BENCH_JOB_ONLY === '1'
      ? []
      : [
          { name: 'espeak-ng', engine: await createEspeakEngine(), engineConfig: {} },
          { name: 'sherpa-vits-tiny', engine: await createSherpaTtsEngine(), engineConfig: tiny.engineConfig },
        ];
  for (const { name, engine, engineConfig } of engines) {
    for (const [label, text] of [['sentence', SHORT], ['paragraph', PARAGRAPH]] as const) {
      const times: number[] = [];
      let audio = 0;
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const out = await engine.run(ttsTask(work, text, { speed: 1 }, { engineConfig }), testContext());
        times.push((performance.now() - started) / 1000);
        audio = out.durationSeconds;
      }
      const p50 = percentile(times, 50);
      console.log(JSON.stringify({ bench: 'tts-rtf', engine: name, text: label, chars: text.length, audio_seconds: round3(audio), p50_seconds: round3(p50), p95_seconds: round3(percentile(times, 95)), rtf_p50: round3(p50 / audio), runs: RUNS }));
    }
  }

  const svc = await startTestService({ holdSeconds: 240 });
  try {
    // The person's first job comes after the service is up: its workers start with it (a job arriving during their
    // start-up waits for them, as it would on any cold start), so the first job measures engine loading, not fork.
    const workersStarted = performance.now();
    // This client's own first request (undici and web streams loading, ~30 ms) is not the service's: paid on a bare
    // server first, so the first job measures the service alone. Sent while the workers start (before: right before
    // the first job, where V8's compiling of the client's code on its helper threads, 30–50 ms, was counted in the
    // first job's CPU: they share the process).
    const headers = { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' };
    await clientWarmUp(headers);
    const jobs = svc.service.jobs as JobEngine;
    await jobs.workersReady();
    const workersReadySeconds = (performance.now() - workersStarted) / 1000;
    // The service's own start-up warm-up (one refused request through the HTTP stack, sent once the workers are ready)
    // is part of being ready: a person's first job comes seconds after start. Main's service has none.
    const warmUp = (svc.service as { warmUp?: Promise<unknown> }).warmUp;
    if (warmUp) await warmUp;
    // Then the warm-up jobs on a private job engine (service/start-up-warm-up-job.ts). Main's service has none.
    const warmUpJobs = await (svc.service as { warmUpJobs?: Promise<{ jobs: number; stopped: string | null; ms: number }> }).warmUpJobs;
    const warmUpSeconds = (performance.now() - workersStarted) / 1000;
    const workerRssMb = jobs.workerStats().pids.map(rssMb);
    const times: number[] = [];
    const phases: Phases[] = [];
    const serviceCpu: number[] = [];
    // The service's main thread apart (its other threads: V8's compilers and GC helpers, libuv's pool).
    const mainThread = (tid: string): boolean => tid === String(process.pid);
    const serviceMainCpu: number[] = [];
    const workerCpu: number[] = [];
    const workerPids = jobs.workerStats().pids;
    const workersCpuMs = () => workerPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    for (let i = 0; i < RUNS; i++) {
      const cpuBefore = [cpuMs(process.pid), workersCpuMs(), cpuMs(process.pid, mainThread)] as const;
      const sentAt = Date.now();
      const started = performance.now();
      const res = await fetch(`${svc.url}/v1/text-to-speech`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'espeak-ng', text: SHORT }),
      });
      const job = (await res.json()) as Job;
      if (job.status !== 'succeeded') throw new Error(`job ended ${job.status} ${job.error_code ?? ''} ${job.error_message ?? ''}`);
      times.push((performance.now() - started) / 1000);
      phases.push(phasesOf(job, sentAt, Date.now()));
      serviceCpu.push(cpuMs(process.pid) - cpuBefore[0]);
      serviceMainCpu.push(cpuMs(process.pid, mainThread) - cpuBefore[2]);
      workerCpu.push(workersCpuMs() - cpuBefore[1]);
    }
    const warmCpu = {
      service: percentile(serviceCpu.slice(1), 50),
      worker: percentile(workerCpu.slice(1), 50),
      serviceMain: percentile(serviceMainCpu.slice(1), 50),
    };
    const warmP50 = percentile(times.slice(1), 50);
    console.log(
      JSON.stringify({
        bench: 'tts-job',
        model: 'espeak-ng',
        text: 'sentence',
        p50_seconds: round3(percentile(times, 50)),
        p95_seconds: round3(percentile(times, 95)),
        first_seconds: round3(times[0]!),
        warm_p50_seconds: round3(warmP50),
        first_over_warm_p50: round3(times[0]! / warmP50),
        first_phases_ms: phases[0],
        warm_phases_p50_ms: medianPhases(phases.slice(1)),
        // CPU used during the job (ms): the service process (with this client: they share it) and the workers.
        first_cpu_ms: { service: round3(serviceCpu[0]!), service_main_thread: round3(serviceMainCpu[0]!), worker: round3(workerCpu[0]!) },
        warm_cpu_p50_ms: { service: round3(warmCpu.service), service_main_thread: round3(warmCpu.serviceMain), worker: round3(warmCpu.worker) },
        first_over_warm_cpu: round3((serviceCpu[0]! + workerCpu[0]!) / (warmCpu.service + warmCpu.worker)),
        workers_ready_after_start_seconds: round3(workersReadySeconds),
        warm_up_done_after_start_seconds: warmUp ? round3(warmUpSeconds) : null,
        warm_up_jobs: warmUpJobs ?? null,
        worker_rss_after_ready_mb: workerRssMb,
        service_rss_mb: rssMb(process.pid),
        load_average_1m: round3(loadavg()[0]!),
        runs: RUNS,
      }),
    );
  } finally {
    await svc.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
