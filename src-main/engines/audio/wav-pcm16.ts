/**
 * Reads a WAV file that already is what a recognizer takes — PCM16, one channel, at the wanted rate — straight from
 * disk: no ffmpeg process to start, no ffprobe to measure it (the header states its length exactly), no conversion.
 * The samples are the ones ffmpeg would decode (its s16 → float → s16 round trip is exact). Anything else — another
 * format, rate or channel count, a header whose sizes do not match the file (a streamed or truncated WAV) — is
 * `null`, and the caller decodes with ffmpeg as usual.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parseWavHeader, type WavHeader } from './wav-header.js';

/** Where the samples of a plain PCM16 mono WAV are. */
export interface Pcm16Wav {
  /** Byte offset of the first sample. */
  dataOffset: number;
  samples: number;
  sampleRate: number;
}

const HEADER_BYTES = 64 * 1024;
const FORMAT_PCM = 1;

/** The layout of `file` when it is a plain PCM16 mono WAV at `sampleRate`; otherwise null (never throws on content). */
export async function plainPcm16Wav(file: string, sampleRate: number): Promise<Pcm16Wav | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null; // unreadable: the decoder reports it
  }
  let size: number;
  let header: WavHeader | null;
  try {
    size = (await handle.stat()).size;
    const head = new Uint8Array(Math.min(HEADER_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    header = parseWavHeader(head);
  } finally {
    await handle.close();
  }
  if (!header?.data || header.formatTag !== FORMAT_PCM || header.channels !== 1 || header.bitsPerSample !== 16 || header.sampleRate !== sampleRate) return null;
  const { offset, bytes } = header.data;
  // A streamed WAV states 0 or 0xFFFFFFFF; a truncated one more than the file holds: let ffmpeg handle those.
  if (offset + bytes > size || (bytes === 0 && size > offset)) return null;
  return { dataOffset: offset, samples: Math.floor(bytes / 2), sampleRate };
}

/**
 * The samples from `fromSample` on, in blocks of `blockSamples` (the last one shorter), read as they are needed;
 * closing the generator closes the file. (WAV is little-endian, as every platform Node runs us on.)
 */
export async function* pcm16WavBlocks(file: string, wav: Pcm16Wav, fromSample: number, blockSamples: number): AsyncGenerator<Int16Array> {
  const first = Math.min(Math.max(0, fromSample), wav.samples);
  if (first >= wav.samples) return;
  const stream = createReadStream(file, {
    start: wav.dataOffset + first * 2,
    end: wav.dataOffset + wav.samples * 2 - 1,
    highWaterMark: blockSamples * 2,
  });
  let block = new Int16Array(blockSamples);
  let bytes = new Uint8Array(block.buffer);
  let filled = 0; // bytes
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length; ) {
        const take = Math.min(chunk.length - at, bytes.length - filled);
        bytes.set(chunk.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === bytes.length) {
          yield block;
          block = new Int16Array(blockSamples);
          bytes = new Uint8Array(block.buffer);
          filled = 0;
        }
      }
    }
    if (filled >= 2) yield block.subarray(0, filled >> 1);
  } finally {
    stream.destroy();
  }
}
