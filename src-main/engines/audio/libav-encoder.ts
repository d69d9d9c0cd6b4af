/**
 * Opus (in Ogg) and FLAC without ffmpeg: libav.js (@libav.js/variant-webcodecs, LGPL-2.1 — FFmpeg's libavcodec with
 * libopus and libavformat compiled to WebAssembly). The muxer writes through a device whose writes come back with
 * their file position, so the stream gets packets as they are encoded (the AVIO buffer is flushed after each
 * write) and the FLAC muxer's final STREAMINFO fix-up reaches files only (encoded-sink.ts). AAC is not in any
 * published libav.js build, so AAC needs ffmpeg. The module loads once per process (~150 ms).
 */
import type LibAVTypes from '@libav.js/variant-webcodecs';
import { JobError } from '../../common/errors.js';
import type { EncodedSink } from './encoded-sink.js';
import type { FormatEncoder } from './format-encoder.js';
import { floatToInt16 } from './pcm.js';

export type LibavFormat = 'opus' | 'flac';

type LibAVInstance = LibAVTypes.LibAV & LibAVTypes.LibAVSync;

/** Opus bit rate per channel (kbit/s), as with ffmpeg. */
const OPUS_BPS_PER_CHANNEL = 32_000;
/** Rates libopus accepts; anything else is resampled to 48 kHz before this encoder (see stream-encoder.ts). */
export const OPUS_RATES: readonly number[] = [8000, 12000, 16000, 24000, 48000];

// One instance at a time: its onwrite hook and file table are shared by every muxer in it.
let instance: Promise<LibAVInstance> | undefined;
let queue: Promise<unknown> = Promise.resolve();
/** Each open muxer's device file → where its writes go. */
const writers = new Map<string, (position: number, bytes: Uint8Array) => void>();

function libav(): Promise<LibAVInstance> {
  instance ??= import('@libav.js/variant-webcodecs')
    .then((m) => ((m as unknown as { default?: LibAVTypes.LibAVWrapper }).default ?? (m as unknown as LibAVTypes.LibAVWrapper)).LibAV({ noworker: true, nothreads: true }))
    .then((lib) => {
      const ready = lib as LibAVInstance;
      ready.onwrite = (name, position, buffer) => writers.get(name)?.(position, Uint8Array.from(buffer as Uint8Array));
      return ready;
    });
  instance.catch(() => (instance = undefined));
  return instance;
}

/** Runs libav.js calls of one encoder in order with every other encoder's (the instance is shared). */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const next = queue.then(fn, fn);
  queue = next.catch(() => undefined);
  return next;
}

let nextFile = 0;

export async function createLibavEncoder(format: LibavFormat, sampleRate: number, channels: number, sink: EncodedSink): Promise<FormatEncoder> {
  if (format === 'opus' && !OPUS_RATES.includes(sampleRate)) throw new Error(`opus cannot encode at ${sampleRate} Hz`);
  const lib = await libav();
  const file = `out-${nextFile++}.${format}`;
  // libopus takes floats; FLAC only integers (16-bit, as the other lossless outputs here).
  const sampleFormat = format === 'opus' ? lib.AV_SAMPLE_FMT_FLT : lib.AV_SAMPLE_FMT_S16;
  const layout = channels === 1 ? 4 : 3; // AV_CH_LAYOUT_MONO / STEREO
  let aborted = false;
  writers.set(file, (position, bytes) => {
    if (!aborted) sink(bytes, position);
  });

  const setup = await serial(async () => {
    try {
      const [, ctx, frame, pkt, frameSize] = await lib.ff_init_encoder(format === 'opus' ? 'libopus' : 'flac', {
        ctx: { sample_fmt: sampleFormat, sample_rate: sampleRate, channel_layout: layout, channels, ...(format === 'opus' ? { bit_rate: OPUS_BPS_PER_CHANNEL * channels } : {}) },
        time_base: [1, sampleRate],
      });
      const [oc, , pb] = await lib.ff_init_muxer({ format_name: format === 'opus' ? 'ogg' : 'flac', filename: file, device: true, open: true }, [[ctx, 1, sampleRate]]);
      await lib.avformat_write_header(oc, 0);
      await lib.avio_flush(pb);
      return { ctx, frame, pkt, oc, pb, frameSize: frameSize > 0 ? frameSize : 4608 };
    } catch (cause) {
      writers.delete(file);
      throw new JobError('engine_failed', `libav.js could not start a ${format} encoder: ${String(cause)}`, { cause });
    }
  });

  let pending = new Float32Array(0);
  let pts = 0;
  let closed = false;

  /** Encodes whole frames from `pending` (all of it when `final`). */
  const encode = (final: boolean): Promise<void> =>
    serial(async () => {
      const per = setup.frameSize * channels;
      const frames: LibAVTypes.Frame[] = [];
      let offset = 0;
      while (pending.length - offset >= per || (final && pending.length - offset > 0)) {
        const floats = pending.slice(offset, Math.min(pending.length, offset + per));
        const data = format === 'opus' ? floats : floatToInt16(floats);
        frames.push({ data, format: sampleFormat, channel_layout: layout, channels, sample_rate: sampleRate, pts });
        pts += floats.length / channels;
        offset += floats.length;
      }
      pending = pending.slice(offset);
      if (frames.length === 0 && !final) return;
      const packets = await lib.ff_encode_multi(setup.ctx, setup.frame, setup.pkt, frames, final);
      if (packets.length > 0) await lib.ff_write_multi(setup.oc, setup.pkt, packets);
      await lib.avio_flush(setup.pb);
    });

  const release = (): Promise<void> =>
    serial(async () => {
      if (closed) return;
      closed = true;
      await lib.ff_free_muxer(setup.oc, setup.pb);
      await lib.ff_free_encoder(setup.ctx, setup.frame, setup.pkt);
      writers.delete(file);
      await lib.unlink(file).catch(() => undefined);
    });

  return {
    async write(interleaved) {
      if (aborted) return;
      const joined = new Float32Array(pending.length + interleaved.length);
      joined.set(pending);
      joined.set(interleaved, pending.length);
      pending = joined;
      await encode(false);
    },
    async end() {
      try {
        await encode(true);
        await serial(async () => {
          await lib.av_write_trailer(setup.oc);
          await lib.avio_flush(setup.pb);
        });
      } catch (cause) {
        throw new JobError('engine_failed', `libav.js could not encode ${format}: ${String(cause)}`, { cause });
      } finally {
        await release();
      }
    },
    abort() {
      aborted = true;
      void release().catch(() => undefined);
    },
  };
}

/** Whether the libav.js package can be loaded here (it is a regular dependency; this guards broken installs). */
export async function libavAvailable(): Promise<boolean> {
  try {
    await libav();
    return true;
  } catch {
    return false;
  }
}
