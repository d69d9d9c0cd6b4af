/**
 * Goal 7 of issue 14 (memory over a 2-hour recording). A two-hour recording (jfk.wav + silence, looped) through the
 * streamed paths, with resident memory (RSS) sampled at the start and at 25 / 50 / 75 / 100 % of the audio:
 * 1. decode + Silero VAD in this process;
 * 2. a whole recognition job with the tiny NeMo CTC model, the engine called in this process;
 * 3. the same job through `voxdesk serve` (one worker): RSS of the service process and of the worker process, the
 *    percentages being the job's progress as the API reports it, and each process's peak (VmHWM).
 * Flat means: what a process holds at 100 % is what it held at 25 % (once models are loaded and buffers warm), give or
 * take the allocator's noise — the file as one Float32 array would be 460 MB. JSON lines `stt-long`: wall time,
 * real-time factor, `rss_mb` samples, `growth_25_to_100_mb` per process.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../src-main/common/api-types.js';
import { isTerminal } from '../src-main/common/job-states.js';
import sherpaAsrFactory from '../src-main/engines/asr/sherpa-asr-engine.js';
import { decodeBlocks } from '../src-main/engines/audio/decode.js';
import { segmentSpeech } from '../src-main/engines/audio/segments.js';
import { ROOT, startServeProcess } from '../test/helpers/service.js';
import { SHARED } from '../test/helpers/system.js';
import { makeTempDir } from '../test/helpers/audio-fixtures.js';
import { recordingContext, sttTask, tinyNemoCtcConfig } from '../test/helpers/engine-context.js';
import { LONG_SECONDS, makeTwoHourFile } from '../test/helpers/long-file.js';
import { round3 } from './_stats.js';

const VAD = join(SHARED, 'models/silero_vad_v5.onnx');
const temp = makeTempDir('voxdesk-bench-long-');
const MB = 1024 * 1024;
const MARKS = [0.25, 0.5, 0.75];
const KEY = 'vdk_' + 'L'.repeat(32);

/** RSS samples at start, 25, 50, 75 and 100 % (in MB), filled as the work passes each mark. */
class RssSamples {
  readonly mb: Record<string, number> = {};
  private next = 0;

  constructor(private readonly read: () => number) {
    this.mb.start = round3(read() / MB);
  }

  /** Called as the work goes on; samples each mark once, when first passed. */
  at(fraction: number): void {
    while (this.next < MARKS.length && fraction >= MARKS[this.next]!) this.mb[`${MARKS[this.next++]! * 100}%`] = round3(this.read() / MB);
  }

  end(): { rss_mb: Record<string, number>; growth_25_to_100_mb: number } {
    this.at(1);
    this.mb['100%'] = round3(this.read() / MB);
    return { rss_mb: this.mb, growth_25_to_100_mb: round3(this.mb['100%']! - this.mb['25%']!) };
  }
}

/** Resident (VmRSS) or peak resident (VmHWM) memory of a process, in bytes. */
function procMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
}

function line(path: string, seconds: number, extra: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'stt-long', path, audio_seconds: LONG_SECONDS, wall_seconds: round3(seconds), rtf: round3(seconds / LONG_SECONDS), ...extra }));
}

async function inProcess(path: string, work: (progress: (fraction: number) => void) => Promise<number>): Promise<void> {
  const samples = new RssSamples(() => process.memoryUsage().rss);
  const started = performance.now();
  const segments = await work((fraction) => samples.at(fraction));
  line(path, (performance.now() - started) / 1000, { segments, ...samples.end() });
}

async function throughService(file: string): Promise<void> {
  const dataDir = join(temp.dir, 'data');
  const voxdesk = (...args: string[]): string => execFileSync(process.execPath, [join(ROOT, 'bin/voxdesk.js'), ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  voxdesk('models', 'import', join(SHARED, 'models/tiny/tiny-nemo-ctc'), '--id', 'tiny-ctc', '--language', 'en');
  voxdesk('models', 'import', VAD);
  const serve = await startServeProcess(dataDir, ['--workers', '1', '--hold-seconds', '0'], { VOXDESK_API_KEY: KEY });
  try {
    const servicePid = serve.child.pid!;
    const headers = { authorization: `Bearer ${KEY}` };
    const body = new FormData();
    body.append('model', 'tiny-ctc');
    body.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), 'two-hours.wav');
    const started = performance.now();
    const created = (await (await fetch(`${serve.url}/v1/speech-to-text`, { method: 'POST', headers, body })).json()) as Job;
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(servicePid)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    if (children.length !== 1) throw new Error(`expected one worker process, found ${children.length}`);
    const workerPid = children[0]!;
    const service = new RssSamples(() => procMemory(servicePid, 'VmRSS'));
    const worker = new RssSamples(() => procMemory(workerPid, 'VmRSS'));
    let job = created;
    for (;;) {
      job = (await (await fetch(`${serve.url}/v1/speech-to-text/${created.id}`, { headers })).json()) as Job;
      if (isTerminal(job.status)) break;
      service.at(job.progress ?? 0);
      worker.at(job.progress ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (job.status !== 'succeeded') throw new Error(`the job ended ${job.status}: ${job.error_message}`);
    const seconds = (performance.now() - started) / 1000;
    line('voxdesk serve job (tiny nemo-ctc + vad)', seconds, {
      segments: job.result?.segments?.length ?? 0,
      service: { ...service.end(), peak_mb: round3(procMemory(servicePid, 'VmHWM') / MB) },
      worker: { ...worker.end(), peak_mb: round3(procMemory(workerPid, 'VmHWM') / MB) },
    });
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}

try {
  const file = makeTwoHourFile(temp.dir);
  await inProcess('decode+vad', async (progress) => {
    let n = 0;
    for await (const segment of segmentSpeech(decodeBlocks(file), { vadModel: VAD })) {
      n++;
      progress(segment.end / LONG_SECONDS);
    }
    return n;
  });
  const engine = await sherpaAsrFactory();
  const config = tinyNemoCtcConfig(VAD);
  await inProcess('sherpa-asr job (tiny nemo-ctc)', async (progress) => {
    const out = await engine.run(sttTask(file, 'sherpa-asr', config), recordingContext((fraction) => progress(fraction)));
    return out.result.segments?.length ?? 0;
  });
  await throughService(file);
} finally {
  temp.cleanup();
}
