/**
 * One channel of a meeting capture's recording (chunked-recording.ts: a 44-byte header, then interleaved PCM16) as
 * 16 kHz float samples, read in blocks so that the file itself is never held in memory beside the samples.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { WAV_HEADER_BYTES as HEADER_BYTES } from '../audio/wav-header.js';
const BLOCK_FRAMES = 64 * 1024;

export function readRecordingChannel(path: string, channels: number, channel: number): Float32Array {
  const fd = openSync(path, 'r');
  try {
    const frameBytes = 2 * channels;
    const frames = Math.floor(Math.max(0, fstatSync(fd).size - HEADER_BYTES) / frameBytes);
    const out = new Float32Array(frames);
    const block = Buffer.alloc(BLOCK_FRAMES * frameBytes);
    for (let frame = 0; frame < frames; frame += BLOCK_FRAMES) {
      const count = Math.min(BLOCK_FRAMES, frames - frame);
      const read = readSync(fd, block, 0, count * frameBytes, HEADER_BYTES + frame * frameBytes);
      for (let i = 0; i < Math.floor(read / frameBytes); i++) out[frame + i] = block.readInt16LE(i * frameBytes + channel * 2) / 32768;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
