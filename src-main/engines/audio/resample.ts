/**
 * Mono sample-rate conversion with the Speex resampler (WASM, BSD-3-Clause). The output has exactly
 * round(n · toRate / fromRate) samples, aligned with the input (the filter delay is skipped and flushed).
 */

/** Speex quality 0–10; 5 is Speex's "desktop" default (good quality, a few ms per 5 s of audio). */
export const RESAMPLE_QUALITY = 5;
/** Input samples handed to the WASM module per call: bounds the module's memory for long audio. */
const CHUNK_SAMPLES = 1 << 16;

interface SpeexModule {
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _speex_resampler_init(channels: number, inRate: number, outRate: number, quality: number, errPtr: number): number;
  _speex_resampler_destroy(state: number): void;
  _speex_resampler_skip_zeros(state: number): number;
  _speex_resampler_get_input_latency(state: number): number;
  _speex_resampler_process_float(
    state: number,
    channel: number,
    inPtr: number,
    inLenPtr: number,
    outPtr: number,
    outLenPtr: number,
  ): number;
}

// The package ships no type declarations: a non-literal specifier keeps its `any` local to this file.
const SPEEX_PACKAGE: string = '@echogarden/speex-resampler-wasm';
let modulePromise: Promise<SpeexModule> | undefined;
function speex(): Promise<SpeexModule> {
  modulePromise ??= import(SPEEX_PACKAGE).then((m: { default: () => Promise<SpeexModule> }) => m.default());
  return modulePromise;
}

function checkRate(name: string, rate: number): void {
  if (!Number.isInteger(rate) || rate < 1000 || rate > 384_000) {
    throw new RangeError(`${name} must be an integer sample rate between 1000 and 384000 Hz (got ${rate})`);
  }
}

/** Resamples mono Float32 audio; returns the input itself when the rates match. */
export async function resampleMono(samples: Float32Array, fromRate: number, toRate: number): Promise<Float32Array> {
  checkRate('fromRate', fromRate);
  checkRate('toRate', toRate);
  if (fromRate === toRate || samples.length === 0) return fromRate === toRate ? samples : new Float32Array(0);
  const m = await speex();
  const expected = Math.round((samples.length * toRate) / fromRate);
  const output = new Float32Array(expected);
  const errPtr = m._malloc(4);
  const state = m._speex_resampler_init(1, fromRate, toRate, RESAMPLE_QUALITY, errPtr);
  const maxOut = Math.ceil((CHUNK_SAMPLES * toRate) / fromRate) + 64;
  const inPtr = m._malloc(CHUNK_SAMPLES * 4);
  const outPtr = m._malloc(maxOut * 4);
  const lenPtr = m._malloc(8);
  try {
    if (state === 0) throw new Error(`speex resampler init failed (${fromRate} → ${toRate} Hz)`);
    m._speex_resampler_skip_zeros(state);
    // Zeros after the input push the last samples out of the filter (its input latency).
    const flush = m._speex_resampler_get_input_latency(state) + 16;
    let written = 0;
    let offset = 0;
    const total = samples.length + flush;
    while (offset < total && written < expected) {
      const count = Math.min(CHUNK_SAMPLES, total - offset);
      // HEAP views can be replaced when WASM memory grows: read them after every malloc/process call.
      const heapIn = m.HEAPF32.subarray(inPtr >> 2, (inPtr >> 2) + count);
      heapIn.fill(0);
      if (offset < samples.length) heapIn.set(samples.subarray(offset, Math.min(offset + count, samples.length)));
      let consumed = 0;
      while (consumed < count && written < expected) {
        m.HEAPU32[lenPtr >> 2] = count - consumed;
        m.HEAPU32[(lenPtr >> 2) + 1] = maxOut;
        m._speex_resampler_process_float(state, 0, inPtr + consumed * 4, lenPtr, outPtr, lenPtr + 4);
        const used = m.HEAPU32[lenPtr >> 2] ?? 0;
        const produced = Math.min(m.HEAPU32[(lenPtr >> 2) + 1] ?? 0, expected - written);
        output.set(m.HEAPF32.subarray(outPtr >> 2, (outPtr >> 2) + produced), written);
        written += produced;
        consumed += used;
        if (used === 0 && produced === 0) break;
      }
      offset += count;
    }
    return output;
  } finally {
    if (state !== 0) m._speex_resampler_destroy(state);
    m._free(errPtr);
    m._free(inPtr);
    m._free(outPtr);
    m._free(lenPtr);
  }
}
