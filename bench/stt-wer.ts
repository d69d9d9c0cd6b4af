/**
 * Word error rate and real-time factor of each installed speech-to-text engine on the 58 Hi-Fi TTS utterances
 * (../shared/audio/hifitts-6097, refs.tsv). Engines are called directly (no service). JSON lines on stdout:
 * one per file (`stt-wer-file`) and one summary per engine (`stt-wer`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pocketsphinxFactory from '../src-main/engines/asr/pocketsphinx-engine.js';
import { findPocketsphinx } from '../src-main/engines/asr/pocketsphinx-install.js';
import type { Engine } from '../src-main/engines/engine-types.js';
import { SHARED } from '../test/helpers/system.js';
import { recordingContext, sttTask, wordErrorRate } from '../test/helpers/engine-context.js';

const HIFI = join(SHARED, 'audio/hifitts-6097');
const refs = readFileSync(join(HIFI, 'refs.tsv'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split('\t') as [string, string]);
const limit = Number(process.env.STT_BENCH_FILES ?? refs.length);

async function bench(name: string, engine: Engine, kind: 'pocketsphinx' | 'sherpa-asr', config: Record<string, unknown>): Promise<void> {
  let errors = 0;
  let words = 0;
  let audio = 0;
  let wall = 0;
  for (const [file, reference] of refs.slice(0, limit)) {
    const started = performance.now();
    const out = await engine.run(sttTask(join(HIFI, file), kind, config, { response_format: 'json' }), recordingContext());
    const seconds = (performance.now() - started) / 1000;
    const wer = wordErrorRate(reference, out.result.text ?? '');
    const n = reference.split(/\s+/).length;
    errors += wer * n;
    words += n;
    audio += out.durationSeconds;
    wall += seconds;
    console.log(JSON.stringify({ bench: 'stt-wer-file', engine: name, file, wer: round(wer), rtf: round(seconds / out.durationSeconds) }));
  }
  console.log(
    JSON.stringify({ bench: 'stt-wer', engine: name, files: Math.min(limit, refs.length), words, wer: round(errors / words), audio_seconds: round(audio), rtf: round(wall / audio) }),
  );
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

if (findPocketsphinx()) await bench('pocketsphinx-en-us', await pocketsphinxFactory(), 'pocketsphinx', {});
else console.error('PocketSphinx is not installed: apt install pocketsphinx pocketsphinx-en-us');
