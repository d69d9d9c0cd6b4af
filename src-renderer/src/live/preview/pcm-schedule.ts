/**
 * Jitter-buffer scheduling of PCM16 frames on a Web Audio clock (pure math, unit-tested without a browser):
 * the first frame after an underrun starts `leadSeconds` in the future so a few frames can arrive before it is
 * due; later frames follow back to back, gap-free.
 */

/** Start time of a frame: back to back after the previous one, or a fresh lead after an underrun. */
export function scheduleStart(now: number, nextStart: number, leadSeconds: number): number {
  return nextStart < now + 0.005 ? now + leadSeconds : nextStart;
}

export function pcm16ToFloat32(bytes: ArrayBuffer): Float32Array<ArrayBuffer> {
  const samples = new Int16Array(bytes, 0, Math.floor(bytes.byteLength / 2));
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 32768;
  return out;
}
