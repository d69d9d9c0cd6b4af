/** Test audio for the denoisers: clean speech mixed with seeded noise at a known SNR, and the SNR measure. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeWav, encodeWav } from '../../src-main/engines/audio/wav.js';
import { SHARED } from './system.js';

export const CLEAN_CLIP = join(SHARED, 'audio/hifitts-6097/roots_02_morris_0219.wav');
export const NOISY_CLIP = join(SHARED, 'audio/noisy/gtcrn-mix.wav');
export const GTCRN_MODEL = join(SHARED, 'models/gtcrn_simple.onnx');

export function readMono(path: string): { samples: Float32Array; sampleRate: number } {
  const wav = decodeWav(readFileSync(path));
  return { samples: wav.channels[0]!, sampleRate: wav.sampleRate };
}

export function writeMono(path: string, samples: Float32Array, sampleRate: number, channels = 1): string {
  writeFileSync(path, encodeWav(Array.from({ length: channels }, () => samples), sampleRate));
  return path;
}

/** Deterministic uniform noise in -1..1 (mulberry32). */
export function seededNoise(length: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}

/** Pink noise (Paul Kellet's filter over white noise). */
export function pinkNoise(length: number, seed: number): Float32Array {
  const white = seededNoise(length, seed);
  const out = new Float32Array(length);
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0;
  for (let i = 0; i < length; i++) {
    const w = white[i]!;
    b0 = 0.99886 * b0 + w * 0.0555179;
    b1 = 0.99332 * b1 + w * 0.0750759;
    b2 = 0.969 * b2 + w * 0.153852;
    b3 = 0.8665 * b3 + w * 0.3104856;
    b4 = 0.55 * b4 + w * 0.5329522;
    b5 = -0.7616 * b5 - w * 0.016898;
    out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
    b6 = w * 0.115926;
  }
  return out;
}

function energy(x: Float32Array): number {
  let e = 0;
  for (let i = 0; i < x.length; i++) e += x[i]! * x[i]!;
  return e;
}

/** clean + noise scaled so that the mix has `snrDb` dB signal-to-noise ratio. */
export function mixAtSnr(clean: Float32Array, noise: Float32Array, snrDb: number): Float32Array {
  const gain = Math.sqrt(energy(clean) / (energy(noise) * 10 ** (snrDb / 10)));
  return clean.map((s, i) => s + gain * noise[i]!);
}

/** SNR (dB) of `estimate` against the reference `clean` (same length and alignment). */
export function snrDb(clean: Float32Array, estimate: Float32Array): number {
  const n = Math.min(clean.length, estimate.length);
  let signal = 0;
  let error = 0;
  for (let i = 0; i < n; i++) {
    signal += clean[i]! * clean[i]!;
    const d = estimate[i]! - clean[i]!;
    error += d * d;
  }
  return 10 * Math.log10(signal / error);
}

export function rms(x: Float32Array): number {
  return Math.sqrt(energy(x) / Math.max(1, x.length));
}
