/**
 * Denoiser benchmark: real-time factor of each engine on a 60 s clip and its SNR gain on clean speech mixed with
 * white and pink noise at 5 dB. Prints one JSON line per measurement.
 *   node --import tsx bench/denoise-bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  CLEAN_CLIP,
  mixAtSnr,
  NOISY_CLIP,
  pinkNoise,
  readMono,
  seededNoise,
  snrDb,
  writeMono,
} from '../test/helpers/denoise-fixtures.js';
import { DENOISERS, runDenoiser } from '../test/helpers/run-denoiser.js';

/** Seconds of audio timed per engine (the shared noisy clip looped). Default 60. */
const BENCH_SECONDS = Number(process.env.DENOISE_BENCH_SECONDS ?? 60);
/** Input SNR of the quality measurement (dB). */
const INPUT_SNR_DB = 5;

const root = mkdtempSync(join(tmpdir(), 'voxdesk-denoise-bench-'));
try {
  const noisy = readMono(NOISY_CLIP);
  const long = new Float32Array(BENCH_SECONDS * noisy.sampleRate);
  for (let i = 0; i < long.length; i++) long[i] = noisy.samples[i % noisy.samples.length]!;
  const longFile = writeMono(join(root, 'long.wav'), long, noisy.sampleRate);
  const clean = readMono(CLEAN_CLIP);
  const mixes = {
    white: writeMono(join(root, 'white.wav'), mixAtSnr(clean.samples, seededNoise(clean.samples.length, 7), INPUT_SNR_DB), clean.sampleRate),
    pink: writeMono(join(root, 'pink.wav'), mixAtSnr(clean.samples, pinkNoise(clean.samples.length, 7), INPUT_SNR_DB), clean.sampleRate),
  };
  for (const engine of DENOISERS) {
    await runDenoiser(engine, NOISY_CLIP, root); // warm-up: WASM compile / model load
    const started = performance.now();
    const { output } = await runDenoiser(engine, longFile, root);
    const seconds = (performance.now() - started) / 1000;
    console.log(JSON.stringify({ bench: 'denoise-rtf', engine, audio_seconds: output.durationSeconds, wall_seconds: +seconds.toFixed(3), rtf: +(seconds / output.durationSeconds).toFixed(4) }));
    for (const [noise, file] of Object.entries(mixes)) {
      const before = snrDb(clean.samples, readMono(file).samples);
      const { output: denoised } = await runDenoiser(engine, file, root);
      const after = snrDb(clean.samples, readMono(denoised.artifacts[0]!.path).samples);
      console.log(JSON.stringify({ bench: 'denoise-snr', engine, noise, snr_in_db: +before.toFixed(2), snr_out_db: +after.toFixed(2), gain_db: +(after - before).toFixed(2) }));
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
