/**
 * One-shot mono sample-rate conversion with the Speex resampler (WASM, BSD-3-Clause): the stream resampler run over
 * a whole array. The output has exactly round(n · toRate / fromRate) samples, aligned with the input.
 */
import { concat, createStreamResampler } from './stream-resampler.js';

export { RESAMPLE_QUALITY } from './stream-resampler.js';

/** Resamples mono Float32 audio; returns the input itself when the rates match. */
export async function resampleMono(samples: Float32Array, fromRate: number, toRate: number): Promise<Float32Array> {
  const resampler = await createStreamResampler(fromRate, toRate);
  if (fromRate === toRate) return samples;
  const head = resampler.push(samples);
  const tail = resampler.finish();
  return concat([head, tail]);
}
