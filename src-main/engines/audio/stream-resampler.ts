/**
 * Stateful mono resampler (Speex, WASM) for audio that arrives in blocks: one filter runs across block boundaries
 * (no clicks at the seams), and the whole stream comes out with exactly round(n · to / from) samples, aligned with
 * the input (the filter delay is skipped at the start and flushed at the end).
 */
import type { BlockProcessor } from './block-processor.js';

/** Speex quality 0–10; 5 is Speex's "desktop" default (good quality, a few ms per 5 s of audio). */
export const RESAMPLE_QUALITY = 5;

interface SpeexModule {
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _speex_resampler_init(channels: number, inRate: number, outRate: number, quality: number, errPtr: number): number;
  _speex_resampler_destroy(state: number): void;
  _speex_resampler_skip_zeros(state: number): number;
  _speex_resampler_get_input_latency(state: number): number;
  _speex_resampler_process_float(state: number, channel: number, inPtr: number, inLenPtr: number, outPtr: number, outLenPtr: number): number;
}

/** Input samples handed to the WASM module per call. */
const CHUNK = 8192;

// The package ships no type declarations: a non-literal specifier keeps its `any` local to this file.
const SPEEX_PACKAGE: string = '@echogarden/speex-resampler-wasm';
let modulePromise: Promise<SpeexModule> | undefined;
function speex(): Promise<SpeexModule> {
  modulePromise ??= import(SPEEX_PACKAGE).then((m: { default: () => Promise<SpeexModule> }) => m.default());
  return modulePromise;
}

export function checkRate(name: string, rate: number): void {
  if (!Number.isInteger(rate) || rate < 1000 || rate > 384_000) {
    throw new RangeError(`${name} must be an integer sample rate between 1000 and 384000 Hz (got ${rate})`);
  }
}

class SpeexStream implements BlockProcessor {
  private totalIn = 0;
  private disposed = false;
  private totalOut = 0;
  private readonly maxOut: number;
  private readonly inPtr: number;
  private readonly outPtr: number;
  private readonly lenPtr: number;
  private readonly state: number;

  constructor(
    private readonly m: SpeexModule,
    private readonly from: number,
    private readonly to: number,
  ) {
    this.maxOut = Math.ceil((CHUNK * to) / from) + 64;
    const errPtr = m._malloc(4);
    this.state = m._speex_resampler_init(1, from, to, RESAMPLE_QUALITY, errPtr);
    m._free(errPtr);
    if (this.state === 0) throw new Error(`speex resampler init failed (${from} → ${to} Hz)`);
    m._speex_resampler_skip_zeros(this.state);
    this.inPtr = m._malloc(CHUNK * 4);
    this.outPtr = m._malloc(this.maxOut * 4);
    this.lenPtr = m._malloc(8);
  }

  push(input: Float32Array): Float32Array {
    this.totalIn += input.length;
    return this.run(input, Infinity);
  }

  finish(): Float32Array {
    const expected = Math.round((this.totalIn * this.to) / this.from);
    const flush = new Float32Array(this.m._speex_resampler_get_input_latency(this.state) + 16);
    const tail = this.run(flush, expected - this.totalOut);
    const out = new Float32Array(Math.max(0, expected - (this.totalOut - tail.length)));
    out.set(tail.subarray(0, out.length));
    this.totalOut = expected;
    this.release();
    return out;
  }

  private run(input: Float32Array, limit: number): Float32Array {
    const m = this.m;
    const parts: Float32Array[] = [];
    let produced = 0;
    for (let offset = 0; offset < input.length && produced < limit; offset += CHUNK) {
      const count = Math.min(CHUNK, input.length - offset);
      // HEAP views are replaced when WASM memory grows: read them after every call.
      m.HEAPF32.set(input.subarray(offset, offset + count), this.inPtr >> 2);
      let consumed = 0;
      while (consumed < count && produced < limit) {
        m.HEAPU32[this.lenPtr >> 2] = count - consumed;
        m.HEAPU32[(this.lenPtr >> 2) + 1] = this.maxOut;
        m._speex_resampler_process_float(this.state, 0, this.inPtr + consumed * 4, this.lenPtr, this.outPtr, this.lenPtr + 4);
        const used = m.HEAPU32[this.lenPtr >> 2] ?? 0;
        const made = m.HEAPU32[(this.lenPtr >> 2) + 1] ?? 0;
        if (made > 0) parts.push(m.HEAPF32.slice(this.outPtr >> 2, (this.outPtr >> 2) + made));
        produced += made;
        consumed += used;
        if (used === 0 && made === 0) break;
      }
    }
    this.totalOut += produced;
    return concat(parts, produced);
  }

  release(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.m._speex_resampler_destroy(this.state);
    this.m._free(this.inPtr);
    this.m._free(this.outPtr);
    this.m._free(this.lenPtr);
  }
}

/** Passes audio through when the rates match. */
const identity = (): BlockProcessor => ({ push: (x) => x, finish: () => new Float32Array(0) });

export async function createStreamResampler(from: number, to: number): Promise<BlockProcessor> {
  checkRate('fromRate', from);
  checkRate('toRate', to);
  if (from === to) return identity();
  return new SpeexStream(await speex(), from, to);
}

export function concat(parts: readonly Float32Array[], length = parts.reduce((n, p) => n + p.length, 0)): Float32Array {
  if (parts.length === 1 && parts[0]!.length === length) return parts[0]!;
  const out = new Float32Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part.subarray(0, length - at), at);
    at += Math.min(part.length, length - at);
  }
  return out;
}
