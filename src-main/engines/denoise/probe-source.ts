/**
 * What the uploaded file was before decoding (rate, channels, length): decoding yields mono 16 kHz, but the
 * "source" output options and progress need the original. WAV headers are read directly; other formats ask
 * ffprobe when it is installed; otherwise the format stays unknown and the caller falls back to the decoded form.
 */
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { findFfprobe } from '../audio/probe.js';

export interface SourceInfo {
  sampleRate: number;
  channels: number;
  /** null when the header does not say (streamed WAV, formats ffprobe cannot time). */
  durationSeconds: number | null;
}

/** Bytes read to find a WAV's fmt and data chunks (covers LIST/bext chunks placed before data). */
const HEAD_BYTES = 1 << 16;

export async function probeSource(file: string): Promise<SourceInfo | null> {
  const head = await readHead(file);
  if (!head) return null;
  return parseWavHeader(head) ?? (await ffprobe(file));
}

async function readHead(file: string): Promise<Uint8Array | null> {
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = new Uint8Array(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** Reads fmt/data of a RIFF WAVE header; null when it is not one. */
export function parseWavHeader(head: Uint8Array): SourceInfo | null {
  if (head.length < 12) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const tag = (at: number): string => String.fromCharCode(...head.subarray(at, at + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let channels = 0;
  let sampleRate = 0;
  let blockAlign = 0;
  for (let at = 12; at + 8 <= head.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 24 <= head.length) {
      channels = view.getUint16(at + 10, true);
      sampleRate = view.getUint32(at + 12, true);
      blockAlign = view.getUint16(at + 20, true);
    } else if (id === 'data') {
      if (!(channels > 0 && sampleRate > 0)) return null;
      // 0 and 0xFFFFFFFF mark a WAV written as a stream (length unknown).
      const known = size > 0 && size !== 0xffffffff && blockAlign > 0;
      return { sampleRate, channels, durationSeconds: known ? size / blockAlign / sampleRate : null };
    }
    at += 8 + size + (size % 2);
  }
  return channels > 0 && sampleRate > 0 ? { sampleRate, channels, durationSeconds: null } : null;
}

/** ffprobe's view of the first audio stream (`VOXDESK_FFPROBE` overrides, see audio/probe.ts). */
function ffprobe(file: string): Promise<SourceInfo | null> {
  const program = findFfprobe();
  if (!program) return Promise.resolve(null);
  const args = ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate,channels:format=duration', '-of', 'json', file];
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 30_000 }, (error, stdout) => {
      if (error) return resolve(null);
      try {
        const parsed = JSON.parse(stdout) as { streams?: { sample_rate?: string; channels?: number }[]; format?: { duration?: string } };
        const stream = parsed.streams?.[0];
        const sampleRate = Number(stream?.sample_rate);
        const channels = Number(stream?.channels);
        const duration = Number(parsed.format?.duration);
        if (!(sampleRate > 0 && channels > 0)) return resolve(null);
        resolve({ sampleRate, channels, durationSeconds: duration > 0 ? duration : null });
      } catch {
        resolve(null);
      }
    });
  });
}
