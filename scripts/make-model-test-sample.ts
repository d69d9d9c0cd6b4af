/**
 * Makes resources/samples/model-test.wav, the recording `voxdesk models test` transcribes: MODEL_TEST_SENTENCE
 * spoken by the bundled eSpeak NG (en-us), resampled to 16 kHz mono 16-bit, with 0.3 s of silence at each end.
 * eSpeak's output is not covered by its licence, so the file is ours to ship. Run: node --import tsx scripts/make-model-test-sample.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_TEST_SENTENCE } from '../src-main/cli/model-test-sample.js';
import { resampleMono } from '../src-main/engines/audio/resample.js';
import { encodeWav } from '../src-main/engines/audio/wav.js';
import { EspeakSynth } from '../src-main/engines/tts/espeak-synth.js';

const RATE = 16_000;
export const MODEL_TEST_RECORDING = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'samples', 'model-test.wav');

/** The WAV bytes of the sample (deterministic: a test checks the shipped file against them). */
export async function makeModelTestRecording(): Promise<Uint8Array> {
  const synth = await EspeakSynth.create();
  synth.configure({ voice: 'en-us' });
  const speech = await resampleMono(synth.synthesize(MODEL_TEST_SENTENCE), synth.sampleRate, RATE);
  const pad = new Float32Array(Math.round(0.3 * RATE));
  const samples = new Float32Array(pad.length * 2 + speech.length);
  samples.set(speech, pad.length);
  return encodeWav([samples], RATE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bytes = await makeModelTestRecording();
  mkdirSync(dirname(MODEL_TEST_RECORDING), { recursive: true });
  writeFileSync(MODEL_TEST_RECORDING, bytes);
  process.stdout.write(`${MODEL_TEST_RECORDING}: ${bytes.length} bytes\n`);
}
