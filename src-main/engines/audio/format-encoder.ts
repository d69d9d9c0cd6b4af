/**
 * One streaming encoder per container: interleaved Float32 samples in (at the output rate), encoded bytes out to an
 * EncodedSink as soon as the codec produces them. This file holds the pure-JS ones: WAV (16-bit; the header goes out
 * first with "unknown" sizes, fixed up at the end for files), raw PCM, and MP3 (LAME via @breezystack/lamejs).
 * Opus, AAC and FLAC live in ffmpeg-encoder.ts and libav-encoder.ts.
 */
import type { EncodedSink } from './encoded-sink.js';
import { floatToS16le } from './pcm.js';
import { pcm16WavHeader, UNKNOWN_WAV_SIZE, WAV_HEADER_BYTES } from './wav-header.js';

export interface FormatEncoder {
  /** Encodes interleaved samples (-1..1); resolves once they were accepted (back-pressure). */
  write(interleaved: Float32Array): Promise<void>;
  /** Flushes the codec and the container (and any header fix-up); resolves when the last byte went to the sink. */
  end(): Promise<void>;
  /** Stops at once (cancellation); nothing more reaches the sink. */
  abort(): void;
}

/** MP3 bit rate per channel (kbit/s): transparent enough for speech, ~16 KB per second of stereo. */
export const MP3_KBPS_PER_CHANNEL = 64;

/** Raw s16le (interleaved) or a 16-bit WAV. */
export function createPcmEncoder(sampleRate: number, channels: number, sink: EncodedSink, wav: boolean): FormatEncoder {
  let position = 0;
  let aborted = false;
  const emit = (bytes: Uint8Array): void => {
    if (aborted || bytes.length === 0) return;
    sink(bytes, position);
    position += bytes.length;
  };
  if (wav) emit(pcm16WavHeader(sampleRate, channels, UNKNOWN_WAV_SIZE));
  return {
    write(interleaved) {
      emit(floatToS16le(interleaved));
      return Promise.resolve();
    },
    end() {
      if (wav && !aborted) {
        const header = pcm16WavHeader(sampleRate, channels, position - WAV_HEADER_BYTES);
        sink(header.subarray(4, 8), 4);
        sink(header.subarray(40, 44), 40);
      }
      return Promise.resolve();
    },
    abort() {
      aborted = true;
    },
  };
}

/** MP3 through LAME; lamejs is loaded with the first MP3 (most processes never encode one). */
export async function createMp3Encoder(sampleRate: number, channels: number, sink: EncodedSink): Promise<FormatEncoder> {
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const encoder = new Mp3Encoder(channels, sampleRate, MP3_KBPS_PER_CHANNEL * channels);
  let position = 0;
  let aborted = false;
  // lamejs hands back Int8Array views; the bytes are what matter.
  const emit = (a: Int8Array | Uint8Array): void => {
    if (aborted || a.byteLength === 0) return;
    sink(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), position);
    position += a.byteLength;
  };
  return {
    write(interleaved) {
      const pcm = floatToS16le(interleaved);
      const all = new Int16Array(pcm.buffer, pcm.byteOffset, interleaved.length);
      if (channels === 1) {
        emit(encoder.encodeBuffer(all));
      } else {
        const frames = all.length / 2;
        const left = new Int16Array(frames);
        const right = new Int16Array(frames);
        for (let i = 0; i < frames; i++) {
          left[i] = all[2 * i]!;
          right[i] = all[2 * i + 1]!;
        }
        emit(encoder.encodeBuffer(left, right));
      }
      return Promise.resolve();
    },
    end() {
      emit(encoder.flush());
      return Promise.resolve();
    },
    abort() {
      aborted = true;
    },
  };
}
