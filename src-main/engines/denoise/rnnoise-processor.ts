/**
 * RNNoise (xiph, BSD-3-Clause; @echogarden/rnnoise-wasm) as a streaming stage at 48 kHz. RNNoise works on 480-sample
 * frames of int16-scaled floats and delays its output by exactly one frame (measured: the cross-correlation of input
 * and output peaks at lag 480); the stage drops that delay and flushes it at the end, so the output has the input's
 * length and alignment.
 */
import type { BlockProcessor } from '../audio/block-processor.js';
import { importUntyped } from './import-untyped.js';

export const RNNOISE_SAMPLE_RATE = 48_000;
/** RNNoise's frame (10 ms at 48 kHz); also its output delay. */
export const RNNOISE_FRAME = 480;
const SCALE = 32768;

interface RNNoiseModule {
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_get_frame_size(): number;
  _rnnoise_process_frame(state: number, outPtr: number, inPtr: number): number;
}

let modulePromise: Promise<RNNoiseModule> | undefined;
function rnnoise(): Promise<RNNoiseModule> {
  modulePromise ??= importUntyped<() => Promise<RNNoiseModule>>('@echogarden/rnnoise-wasm').then((factory) => factory());
  return modulePromise;
}

class RNNoiseStream implements BlockProcessor {
  private readonly frame = new Float32Array(RNNOISE_FRAME);
  private filled = 0;
  private totalIn = 0;
  private totalOut = 0;
  /** Output samples still to drop: the frame of delay. */
  private skip = RNNOISE_FRAME;
  private readonly state: number;
  private readonly inPtr: number;
  private readonly outPtr: number;
  private released = false;

  constructor(private readonly m: RNNoiseModule) {
    if (m._rnnoise_get_frame_size() !== RNNOISE_FRAME) throw new Error('unexpected RNNoise frame size');
    this.state = m._rnnoise_create(0);
    if (this.state === 0) throw new Error('RNNoise state could not be created');
    this.inPtr = m._malloc(RNNOISE_FRAME * 4);
    this.outPtr = m._malloc(RNNOISE_FRAME * 4);
  }

  push(input: Float32Array): Float32Array {
    this.totalIn += input.length;
    return this.feed(input);
  }

  finish(): Float32Array {
    // Zeros push the last partial frame and the frame of delay through.
    const pad = RNNOISE_FRAME - this.filled + RNNOISE_FRAME;
    const tail = this.feed(new Float32Array(pad));
    const keep = Math.max(0, this.totalIn - (this.totalOut - tail.length));
    this.totalOut = this.totalIn;
    this.release();
    return tail.subarray(0, keep);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.m._rnnoise_destroy(this.state);
    this.m._free(this.inPtr);
    this.m._free(this.outPtr);
  }

  private feed(input: Float32Array): Float32Array {
    const frames = Math.floor((this.filled + input.length) / RNNOISE_FRAME);
    const out = new Float32Array(Math.max(0, frames * RNNOISE_FRAME - this.skip));
    let written = 0;
    let offset = 0;
    while (offset < input.length) {
      const n = Math.min(RNNOISE_FRAME - this.filled, input.length - offset);
      this.frame.set(input.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled < RNNOISE_FRAME) break;
      this.filled = 0;
      const denoised = this.processFrame();
      const from = Math.min(this.skip, RNNOISE_FRAME);
      this.skip -= from;
      out.set(denoised.subarray(from), written);
      written += RNNOISE_FRAME - from;
    }
    this.totalOut += written;
    return out;
  }

  private processFrame(): Float32Array {
    const heapIn = this.inPtr >> 2;
    const heap = this.m.HEAPF32;
    for (let i = 0; i < RNNOISE_FRAME; i++) heap[heapIn + i] = this.frame[i]! * SCALE;
    this.m._rnnoise_process_frame(this.state, this.outPtr, this.inPtr);
    const result = this.m.HEAPF32.slice(this.outPtr >> 2, (this.outPtr >> 2) + RNNOISE_FRAME);
    for (let i = 0; i < RNNOISE_FRAME; i++) result[i]! /= SCALE;
    return result;
  }
}

/** A fresh RNNoise stream (one per job: RNNoise keeps state across frames). */
export async function createRNNoiseStream(): Promise<BlockProcessor> {
  return new RNNoiseStream(await rnnoise());
}
