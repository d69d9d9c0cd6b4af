/**
 * Goal 4 of issue 14: the whole speech-to-text job path (HTTP upload, SQLite job, worker process, ffprobe, ffmpeg
 * decode, recognition, result) against the engine alone on the same files, PocketSphinx on Hi-Fi TTS utterances.
 *
 * The baseline "engine alone" is the engine's best possible run: one libpocketsphinx decoder in this process, its
 * model loaded before timing, fed each file's samples already decoded into memory (decoding not timed), with the
 * segmentation the engine uses — recognition and nothing else. For reference the same run also times
 * `pocketsphinx_continuous` on the same raw samples (what the engine ran per job before round 2: the model loaded
 * each time) and the engine module called directly (warm decoder, ffprobe + ffmpeg decode included, no service).
 *
 * The service runs one worker; one untimed job first loads the worker's decoder (reported as `first_job_seconds`).
 * Then, for STT_BENCH_ROUNDS rounds (default 3), each file is run by the baseline, the direct call and the service
 * back to back (interleaved, so the machine's load hits all three alike); each figure is the sum over files of the
 * per-file median. JSON line `stt-overhead` with the totals and the ratio (goal ≤ 1.05).
 *
 * `STT_BENCH_BEFORE=/path/to/another/checkout` also runs that checkout's service (e.g. main before a change) in the
 * same interleaved rounds against the same baseline: `before_service_seconds`, `before_ratio`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Job } from '../src-main/common/api-types.js';
import pocketsphinxFactory from '../src-main/engines/asr/pocketsphinx-engine.js';
import { findPocketsphinx } from '../src-main/engines/asr/pocketsphinx-install.js';
import { PocketsphinxStreamDecoder } from '../src-main/engines/asr/pocketsphinx-stream-decoder.js';
import { SHARED } from '../test/helpers/system.js';
import { startTestService } from '../test/helpers/service.js';
import { makeTempDir } from '../test/helpers/audio-fixtures.js';
import { recordingContext, sttTask } from '../test/helpers/engine-context.js';
import { percentile, round3 } from './_stats.js';

const HIFI = join(SHARED, 'audio/hifitts-6097');
const files = readFileSync(join(HIFI, 'refs.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(0, Number(process.env.STT_BENCH_FILES ?? 8))
  .map((line) => join(HIFI, line.split('\t')[0]!));
const ROUNDS = Number(process.env.STT_BENCH_ROUNDS ?? 3);

const install = findPocketsphinx();
if (!install) throw new Error('PocketSphinx is not installed: apt install pocketsphinx pocketsphinx-en-us');
const temp = makeTempDir('voxdesk-bench-stt-');
const seconds = (from: number): number => (performance.now() - from) / 1000;
const median = (values: number[]): number => percentile(values, 50);

/** Each file as 16 kHz PCM16 (for the baseline) and as a raw file (for the program). */
const pcm = files.map((file, i) => {
  const raw = join(temp.dir, `${i}.raw`);
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '16000', '-y', raw]);
  const bytes = readFileSync(raw);
  return { raw, samples: new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2) };
});

const decoder = new PocketsphinxStreamDecoder(install);
function engineAlone(samples: Int16Array): number {
  const started = performance.now();
  decoder.begin();
  decoder.feed(samples);
  decoder.finish();
  return seconds(started);
}

function program(raw: string): number {
  const started = performance.now();
  execFileSync(install!.program, ['-infile', raw, '-time', 'yes', '-hmm', install!.hmm, '-lm', install!.lm, '-dict', install!.dict, '-logfn', '/dev/null'], {
    stdio: 'ignore',
  });
  return seconds(started);
}

const engine = await pocketsphinxFactory();
await engine.warm?.();
async function direct(file: string): Promise<{ wall: number; audio: number }> {
  const started = performance.now();
  const out = await engine.run(sttTask(file, 'pocketsphinx', {}), recordingContext());
  return { wall: seconds(started), audio: out.durationSeconds };
}

type Started = Awaited<ReturnType<typeof startTestService>>;
const svc = await startTestService({ holdSeconds: 240 });
const beforeRoot = process.env.STT_BENCH_BEFORE;
const before: Started | null = beforeRoot
  ? await ((await import(join(beforeRoot, 'test/helpers/service.js'))) as { startTestService: typeof startTestService }).startTestService({ holdSeconds: 240 })
  : null;
/**
 * One job through the service's HTTP path. The baseline decodes synchronously in this same process, so an idle
 * keep-alive connection can be closed by the in-process server just as the next request goes out on it (ECONNRESET
 * before the request reached the route): that request is sent again on a new connection and timed from there.
 */
async function viaService(file: string, target: Started = svc): Promise<number> {
  try {
    return await postOnce(file, target);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
    return postOnce(file, target);
  }
}

async function postOnce(file: string, target: Started): Promise<number> {
  const form = new FormData();
  form.append('model', 'pocketsphinx-en-us');
  form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), file.split('/').pop()!);
  const started = performance.now();
  const response = await fetch(`${target.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${target.key}` }, body: form });
  const job = (await response.json()) as Job;
  const wall = seconds(started);
  if (job.status !== 'succeeded') throw new Error(`job ${job.id} ended ${job.status} ${job.error_code ?? ''}`);
  return wall;
}

try {
  const load = [loadavg()[0]!];
  const firstJob = await viaService(files[0]!);
  if (before) await viaService(files[0]!, before);
  const times = files.map(() => ({ alone: [] as number[], direct: [] as number[], service: [] as number[], before: [] as number[], program: 0, audio: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < files.length; i++) {
      const t = times[i]!;
      t.alone.push(engineAlone(pcm[i]!.samples));
      const d = await direct(files[i]!);
      t.direct.push(d.wall);
      t.audio = d.audio;
      t.service.push(await viaService(files[i]!));
      if (before) t.before.push(await viaService(files[i]!, before));
      if (round === 0) t.program = program(pcm[i]!.raw);
    }
    load.push(loadavg()[0]!);
  }
  const total = (pick: (t: (typeof times)[number]) => number): number => times.reduce((sum, t) => sum + pick(t), 0);
  const alone = total((t) => median(t.alone));
  const service = total((t) => median(t.service));
  console.log(
    JSON.stringify({
      bench: 'stt-overhead',
      engine: 'pocketsphinx-en-us',
      files: files.length,
      rounds: ROUNDS,
      audio_seconds: round3(total((t) => t.audio)),
      baseline: 'engine alone: warm libpocketsphinx decoder in the bench process, samples decoded beforehand',
      engine_alone_seconds: round3(alone),
      service_seconds: round3(service),
      ratio: round3(service / alone),
      goal: 1.05,
      direct_engine_call_seconds: round3(total((t) => median(t.direct))),
      direct_ratio: round3(total((t) => median(t.direct)) / alone),
      program_per_file_seconds: round3(total((t) => t.program)),
      program_ratio: round3(total((t) => t.program) / alone),
      ...(before ? { before_service_seconds: round3(total((t) => median(t.before))), before_ratio: round3(total((t) => median(t.before)) / alone) } : {}),
      first_job_seconds: round3(firstJob),
      first_job_engine_alone_seconds: round3(median(times[0]!.alone)),
      load_average: load.map((l) => round3(l)),
    }),
  );
} finally {
  await svc.stop();
  await before?.stop();
  await engine.dispose?.();
  decoder.dispose();
  temp.cleanup();
}
