/**
 * A streaming audio stage: push blocks in, get whatever is ready out; finish() returns the rest. Every stage here
 * keeps its output aligned with its input and, over the whole stream, of the length its contract states (same
 * length for denoisers, round(n · to / from) for resamplers), so stages chain without drift.
 */
export interface BlockProcessor {
  push(input: Float32Array): Float32Array;
  finish(): Float32Array;
  /** Frees native/WASM state early (on cancellation); finish() frees it otherwise. */
  release?(): void;
}
