/** WAV (RIFF) encode/decode with @echogarden/wave-codec (MIT): PCM 8/16/24/32-bit and float, any channel count. */
import { decodeWaveToFloat32Channels, encodeWaveFromFloat32Channels } from '@echogarden/wave-codec';
import { JobError } from '../../common/errors.js';

export interface DecodedWav {
  sampleRate: number;
  /** One Float32Array per channel, samples in -1..1. */
  channels: Float32Array[];
}

/** Encodes channels (equal lengths, -1..1, clipped) as a 16-bit PCM WAV file. */
export function encodeWav(channels: Float32Array[], sampleRate: number, bitDepth: 16 = 16): Uint8Array {
  if (channels.length === 0) throw new RangeError('encodeWav needs at least one channel');
  const length = channels[0]!.length;
  if (channels.some((c) => c.length !== length)) throw new RangeError('encodeWav: channels differ in length');
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`encodeWav: bad sample rate ${sampleRate}`);
  return encodeWaveFromFloat32Channels(channels, sampleRate, bitDepth);
}

/** Decodes a WAV file; anything that is not a readable WAV raises JobError `audio_decode_failed`. */
export function decodeWav(bytes: Uint8Array): DecodedWav {
  let decoded: { audioChannels: Float32Array[]; sampleRate: number };
  try {
    // Truncated files (a recorder killed mid-write) still carry usable audio: keep what is there.
    decoded = decodeWaveToFloat32Channels(bytes, true, true);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new JobError('audio_decode_failed', `not a readable WAV file: ${detail}`, { cause });
  }
  if (decoded.audioChannels.length === 0 || !(decoded.sampleRate > 0)) {
    throw new JobError('audio_decode_failed', 'WAV file has no audio channels or no sample rate');
  }
  return { sampleRate: decoded.sampleRate, channels: decoded.audioChannels };
}
