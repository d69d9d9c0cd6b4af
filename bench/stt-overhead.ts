/**
 * Overhead of the whole speech-to-text job path (HTTP upload, SQLite job, worker process, decode, engine, result)
 * against calling the engine directly on the same audio, with PocketSphinx on Hi-Fi TTS utterances. JSON line:
 * `stt-overhead` with both totals and their ratio.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../src-main/common/api-types.js';
import pocketsphinxFactory from '../src-main/engines/asr/pocketsphinx-engine.js';
import { SHARED } from '../test/helpers/system.js';
import { startTestService } from '../test/helpers/service.js';
import { recordingContext, sttTask } from '../test/helpers/engine-context.js';

const HIFI = join(SHARED, 'audio/hifitts-6097');
const files = readFileSync(join(HIFI, 'refs.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(0, Number(process.env.STT_BENCH_FILES ?? 8))
  .map((line) => join(HIFI, line.split('\t')[0]!));

const engine = await pocketsphinxFactory();
let direct = 0;
let audio = 0;
for (const file of files) {
  const started = performance.now();
  const out = await engine.run(sttTask(file, 'pocketsphinx', {}), recordingContext());
  direct += (performance.now() - started) / 1000;
  audio += out.durationSeconds;
}

const svc = await startTestService({ holdSeconds: 240 });
let service = 0;
try {
  for (const file of files) {
    const form = new FormData();
    form.append('model', 'pocketsphinx-en-us');
    form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), file.split('/').pop()!);
    const started = performance.now();
    const response = await fetch(`${svc.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${svc.key}` }, body: form });
    const job = (await response.json()) as Job;
    service += (performance.now() - started) / 1000;
    if (job.status !== 'succeeded') throw new Error(`job ${job.id} ended ${job.status} ${job.error_code ?? ''}`);
  }
} finally {
  await svc.stop();
}
const round = (v: number): number => Math.round(v * 1000) / 1000;
console.log(
  JSON.stringify({
    bench: 'stt-overhead',
    engine: 'pocketsphinx-en-us',
    files: files.length,
    audio_seconds: round(audio),
    direct_seconds: round(direct),
    service_seconds: round(service),
    ratio: round(service / direct),
  }),
);
