/**
 * A designed voice's pitch, shifted after synthesis (docs/voices.md): Kokoro has no pitch control, so a voice
 * shifted by `s` semitones (factor p = 2^(s/12)) is spoken p times slower than asked (its speed ÷ p) and the samples
 * are then played p times faster — resampled from rate·p to the rate — which raises every frequency by p and brings
 * the length back to what was asked. Formants move with the pitch (as in a tape sped up), which is why the shift is
 * limited to ±4 semitones.
 */
import { resampleMono } from '../../audio/resample.js';

/** The pitch factor of a shift in semitones. */
export function pitchFactor(semitones: number): number {
  return 2 ** (semitones / 12);
}

/** The speed to synthesize at so that `shift` brings the speech back to `speed`. */
export function speedBeforeShift(speed: number, semitones: number): number {
  return speed / pitchFactor(semitones);
}

/** Raises (or lowers) the pitch of speech made at speedBeforeShift(): same rate out, length ÷ factor. */
export async function shiftPitch(samples: Float32Array, sampleRate: number, semitones: number): Promise<Float32Array> {
  if (semitones === 0 || samples.length === 0) return samples;
  return resampleMono(samples, Math.round(sampleRate * pitchFactor(semitones)), sampleRate);
}
