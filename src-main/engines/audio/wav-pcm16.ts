/**
 * Reads a WAV file that already is what a recognizer takes — PCM16, one channel, at the wanted rate — straight from
 * disk: no ffmpeg process to start, no ffprobe to measure it (the header states its length exactly), no conversion.
 * The samples are the ones ffmpeg would decode (its s16 → float → s16 round trip is exact). Anything else — another
 * format, rate or channel count, a header whose sizes do not match the file (a streamed or truncated WAV) — is
 * `null`, and the caller decodes with ffmpeg as usual.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/** Where the samples of a plain PCM16 mono WAV are. */
export interface Pcm16Wav {
  /** Byte offset of the first sample. */
  dataOffset: number;
  samples: number;
  sampleRate: number;
}

const HEADER_BYTES = 64 * 1024;
const FORMAT_PCM = 1;
const FORMAT_EXTENSIBLE = 0xfffe;

/** The layout of `file` when it is a plain PCM16 mono WAV at `sampleRate`; otherwise null (never throws on content). */
export async function plainPcm16Wav(file: string, sampleRate: number): Promise<Pcm16Wav | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null; // unreadable: the decoder reports it
  }
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(HEADER_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    return parse(head, size, sampleRate);
  } finally {
    await handle.close();
  }
}

function parse(head: Buffer, fileSize: number, sampleRate: number): Pcm16Wav | null {
  if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return null;
  let format: { tag: number; channels: number; rate: number; bits: number; subTag: number | null } | null = null;
  for (let at = 12; at + 8 <= head.length; ) {
    const id = head.toString('latin1', at, at + 4);
    const length = head.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      if (length < 16 || body + length > head.length) return null;
      const tag = head.readUInt16LE(body);
      format = {
        tag,
        channels: head.readUInt16LE(body + 2),
        rate: head.readUInt32LE(body + 4),
        bits: head.readUInt16LE(body + 14),
        subTag: tag === FORMAT_EXTENSIBLE && length >= 26 ? head.readUInt16LE(body + 24) : null,
      };
    } else if (id === 'data') {
      if (!format) return null;
      const pcm = format.tag === FORMAT_PCM || (format.tag === FORMAT_EXTENSIBLE && format.subTag === FORMAT_PCM);
      if (!pcm || format.channels !== 1 || format.bits !== 16 || format.rate !== sampleRate) return null;
      // A streamed WAV states 0 or 0xFFFFFFFF; a truncated one more than the file holds: let ffmpeg handle those.
      if (body + length > fileSize || (length === 0 && fileSize > body)) return null;
      return { dataOffset: body, samples: Math.floor(length / 2), sampleRate };
    }
    at = body + length + (length & 1);
  }
  return null;
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
