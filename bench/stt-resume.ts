/**
 * Checkpoints on a 2-hour recording (the 6-minute sox recording of the shared clips, looped), through `voxdesk serve`
 * with the tiny NeMo CTC model and Silero VAD: an uninterrupted job, then the same job with the service SIGKILLed once
 * the job passed 60 %, restarted, and run to the end. Reports the engine seconds spent after the restart divided by
 * the uninterrupted run's (goal ≤ 0.45: the finished 60 % is not done again), both transcripts' equality, and the
 * worker's and the service's peak RSS (VmHWM) in each run (goal: flat, the same with or without a resume).
 *
 * Engine seconds are the worker process's CPU seconds (its own and its ffmpeg decoder's, from /proc), worker start-up
 * included in both runs; the wall time of each run is reported too, but on a shared 2-core machine it mostly measures
 * the other processes. JSON lines `stt-resume`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, SegmentList } from '../src-main/common/api-types.js';
import { isTerminal } from '../src-main/common/job-states.js';
import { ROOT, startServeProcess, type ServeProcess } from '../test/helpers/service.js';
import { SHARED } from '../test/helpers/system.js';
import { ffmpeg } from '../test/helpers/audio-fixtures.js';
import { makeLongRecording } from '../test/helpers/long-recording.js';
import { round3 } from './_stats.js';

const SECONDS = 7200;
const KILL_AT = 0.6;
const KEY = 'vdk_' + 'B'.repeat(32);
const MB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-resume-'));
const dataDir = join(dir, 'data');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Peak resident memory (VmHWM) of a process, in bytes. */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
}
/** CPU seconds of a process and of its children it waited for (ffmpeg), from /proc/PID/stat. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  // After the command: state is field 3, so utime, stime, cutime, cstime (fields 14–17) are at 11–14 here.
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS;
}
function workerPid(servePid: number): number {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(servePid)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
  if (children.length !== 1) throw new Error(`expected one worker process, found ${children.length}`);
  return children[0]!;
}

async function serve(): Promise<{ process: ServeProcess; get<T>(path: string): Promise<T>; post(path: string, body: FormData): Promise<Job> }> {
  const started = await startServeProcess(dataDir, ['--workers', '1', '--hold-seconds', '0'], { VOXDESK_API_KEY: KEY });
  const headers = { authorization: `Bearer ${KEY}` };
  return {
    process: started,
    get: async <T>(path: string) => (await (await fetch(started.url + path, { headers })).json()) as T,
    post: async (path, body) => (await (await fetch(started.url + path, { method: 'POST', headers, body })).json()) as Job,
  };
}

async function until(read: () => Promise<Job>, done: (job: Job) => boolean): Promise<Job> {
  for (;;) {
    const job = await read();
    if (done(job)) return job;
    await sleep(200);
  }
}

const seconds = (job: Job): number => (Date.parse(job.finished_at!) - Date.parse(job.started_at!)) / 1000;

try {
  const long = makeLongRecording(dir);
  const file = join(dir, 'two-hours.wav');
  ffmpeg(['-stream_loop', '-1', '-i', long, '-t', String(SECONDS), '-c:a', 'pcm_s16le', file]);
  const voxdesk = (...args: string[]): string => execFileSync(process.execPath, [join(ROOT, 'bin/voxdesk.js'), ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  voxdesk('models', 'import', join(SHARED, 'models/tiny/tiny-nemo-ctc'), '--id', 'tiny-ctc', '--language', 'en');
  voxdesk('models', 'import', join(SHARED, 'models/silero_vad_v5.onnx'));
  const upload = (): FormData => {
    const body = new FormData();
    body.append('model', 'tiny-ctc');
    body.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), 'two-hours.wav');
    return body;
  };

  // 1. Uninterrupted.
  let api = await serve();
  const first = await api.post('/v1/speech-to-text', upload());
  const whole = await until(() => api.get(`/v1/speech-to-text/${first.id}`), (j) => isTerminal(j.status));
  if (whole.status !== 'succeeded') throw new Error(`the uninterrupted job ended ${whole.status}: ${whole.error_message}`);
  const wholeWorker = workerPid(api.process.child.pid!);
  const wholeRss = { worker: peakRss(wholeWorker), service: peakRss(api.process.child.pid!) };
  const wholeCpu = cpuSeconds(wholeWorker);
  api.process.child.kill('SIGTERM');
  await api.process.exited;

  // 2. Killed at 60 %, restarted, finished.
  api = await serve();
  const second = await api.post('/v1/speech-to-text', upload());
  const atKill = await until(() => api.get(`/v1/speech-to-text/${second.id}`), (j) => (j.progress ?? 0) >= KILL_AT || isTerminal(j.status));
  const beforeKill = await api.get<SegmentList>(`/v1/speech-to-text/${second.id}/segments?limit=1000`);
  const firstRunSeconds = (Date.now() - Date.parse(atKill.started_at!)) / 1000;
  api.process.child.kill('SIGKILL');
  await api.process.exited;
  api = await serve();
  const resumed = await until(() => api.get(`/v1/speech-to-text/${second.id}`), (j) => isTerminal(j.status));
  if (resumed.status !== 'succeeded') throw new Error(`the resumed job ended ${resumed.status}: ${resumed.error_message}`);
  const resumedWorker = workerPid(api.process.child.pid!);
  const resumedRss = { worker: peakRss(resumedWorker), service: peakRss(api.process.child.pid!) };
  const resumedCpu = cpuSeconds(resumedWorker);
  api.process.child.kill('SIGTERM');
  await api.process.exited;

  const after = seconds(resumed);
  console.log(
    JSON.stringify({
      bench: 'stt-resume',
      audio_seconds: SECONDS,
      segments: whole.result?.segments?.length ?? 0,
      killed_at_progress: round3(atKill.progress ?? 0),
      committed_before_kill: beforeKill.next_after === null ? 0 : beforeKill.next_after + 1,
      resumed_from_seconds: resumed.resumed_from,
      uninterrupted_engine_cpu_seconds: round3(wholeCpu),
      engine_cpu_seconds_after_restart: round3(resumedCpu),
      ratio: round3(resumedCpu / wholeCpu),
      goal: 0.45,
      uninterrupted_wall_seconds: round3(seconds(whole)),
      wall_seconds_before_kill: round3(firstRunSeconds),
      wall_seconds_after_restart: round3(after),
      wall_ratio: round3(after / seconds(whole)),
      same_transcript: JSON.stringify(resumed.result) === JSON.stringify(whole.result),
      peak_rss_worker_mb: { uninterrupted: round3(wholeRss.worker / MB), resumed: round3(resumedRss.worker / MB) },
      peak_rss_service_mb: { uninterrupted: round3(wholeRss.service / MB), resumed: round3(resumedRss.service / MB) },
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
