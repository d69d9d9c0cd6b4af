/**
 * GTCRN (MIT, Xiaobin-Rong/gtcrn) through sherpa-onnx as a streaming stage at 16 kHz; DPDFNet's streaming exports
 * (dpdfnet_16khz …) run through the same class with their own model config (dpdfnet-engine.ts). sherpa-onnx's
 * OnlineSpeechDenoiser runs the same model frame by frame with its state carried across calls, so blocks join
 * without seams. Measured on ../shared/audio/noisy/gtcrn-mix.wav: output length == input length, no lag, and the
 * streamed result differs from one OfflineSpeechDenoiser pass over the whole file by 2·10⁻⁵ of its energy — the
 * offline class would need overlap-add across blocks and drops the last partial hop.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { JobError } from '../../common/errors.js';
import type { BlockProcessor } from '../audio/block-processor.js';

export const GTCRN_SAMPLE_RATE = 16_000;

interface DenoisedAudio {
  samples: Float32Array;
  sampleRate: number;
}
interface OnlineSpeechDenoiser {
  readonly sampleRate: number;
  run(request: { samples: Float32Array; sampleRate: number; enableExternalBuffer?: boolean }): DenoisedAudio;
  flush(enableExternalBuffer?: boolean): DenoisedAudio;
  reset(): void;
}
/** The sherpa-onnx denoiser families a streaming stage can run. */
export type SherpaDenoiserKind = 'gtcrn' | 'dpdfnet';
interface SherpaDenoise {
  OnlineSpeechDenoiser: new (config: { model: Partial<Record<SherpaDenoiserKind, { model: string }>> & { numThreads: number; debug?: number } }) => OnlineSpeechDenoiser;
}
const NAMES: Record<SherpaDenoiserKind, string> = { gtcrn: 'GTCRN', dpdfnet: 'DPDFNet' };

const require = createRequire(import.meta.url);

/**
 * Idle denoisers per model file: a worker reuses a loaded network across jobs; a job takes one for itself (so two
 * jobs in one process never share streaming state) and gives it back, reset, when it ends.
 */
const idle = new Map<string, OnlineSpeechDenoiser[]>();

function acquire(kind: SherpaDenoiserKind, model: string, rate: number): OnlineSpeechDenoiser {
  const reused = idle.get(model)?.pop();
  if (reused) return reused;
  if (!existsSync(model)) throw new JobError('model_unavailable', `${NAMES[kind]} model file not found: ${model}`);
  const sherpa = require('sherpa-onnx-node') as SherpaDenoise;
  let denoiser: OnlineSpeechDenoiser;
  try {
    denoiser = new sherpa.OnlineSpeechDenoiser({ model: { [kind]: { model }, numThreads: 1, debug: 0 } });
  } catch (cause) {
    throw new JobError('engine_failed', `${NAMES[kind]} model could not be loaded from ${model}: ${(cause as Error).message}`, { cause });
  }
  if (denoiser.sampleRate !== rate) {
    throw new JobError('engine_failed', `${NAMES[kind]} model runs at ${denoiser.sampleRate} Hz; expected ${rate}`);
  }
  return denoiser;
}

function giveBack(model: string, denoiser: OnlineSpeechDenoiser): void {
  denoiser.reset();
  const list = idle.get(model) ?? [];
  list.push(denoiser);
  idle.set(model, list);
}

class GtcrnStream implements BlockProcessor {
  private totalIn = 0;
  private totalOut = 0;
  private released = false;

  constructor(
    private readonly model: string,
    private readonly denoiser: OnlineSpeechDenoiser,
  ) {}

  push(input: Float32Array): Float32Array {
    if (input.length === 0) return input;
    this.totalIn += input.length;
    // Copy: with an external buffer the array would point into memory sherpa reuses on the next call.
    const out = Float32Array.from(this.denoiser.run({ samples: input, sampleRate: GTCRN_SAMPLE_RATE }).samples);
    this.totalOut += out.length;
    return out;
  }

  finish(): Float32Array {
    const tail = Float32Array.from(this.denoiser.flush(false).samples);
    this.release();
    // sherpa returns exactly the input length; guard anyway so the length contract holds.
    const want = Math.max(0, this.totalIn - this.totalOut);
    this.totalOut = this.totalIn;
    if (tail.length === want) return tail;
    const out = new Float32Array(want);
    out.set(tail.subarray(0, want));
    return out;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    giveBack(this.model, this.denoiser);
  }
}

/** A GTCRN stream over `model` (an absolute path to a GTCRN .onnx file with sherpa-onnx metadata). */
export function createGtcrnStream(model: string): BlockProcessor {
  return createSherpaDenoiserStream('gtcrn', model, GTCRN_SAMPLE_RATE);
}

/** A stream of one of sherpa-onnx's streaming denoisers over `model` (absolute path), run at `rate` Hz. */
export function createSherpaDenoiserStream(kind: SherpaDenoiserKind, model: string, rate: number): BlockProcessor {
  return new GtcrnStream(model, acquire(kind, model, rate));
}

/** Drops the idle networks (worker recycling); native memory goes with them when collected. */
export function disposeGtcrn(): void {
  idle.clear();
}
