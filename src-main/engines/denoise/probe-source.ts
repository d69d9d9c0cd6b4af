/**
 * What the uploaded file was before decoding (rate, channels, length): decoding yields mono 16 kHz, but the
 * "source" output options and progress need the original. WAV headers are read directly; other formats ask
 * ffprobe when it is installed; otherwise the format stays unknown and the caller falls back to the decoded form.
 */
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { findFfprobe } from '../audio/probe.js';
import { parseWavHeader } from '../audio/wav-header.js';

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
  return wavSourceInfo(head) ?? (await ffprobe(file));
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

/** Rate, channels and length a RIFF WAVE header states (audio/wav-header.ts); null when it is not one. */
export function wavSourceInfo(head: Uint8Array): SourceInfo | null {
  const header = parseWavHeader(head);
  if (!header || !(header.channels > 0 && header.sampleRate > 0)) return null;
  const bytes = header.data?.bytes ?? 0;
  // 0 and 0xFFFFFFFF mark a WAV written as a stream (length unknown).
  const known = bytes > 0 && bytes !== 0xffffffff && header.blockAlign > 0;
  return { sampleRate: header.sampleRate, channels: header.channels, durationSeconds: known ? bytes / header.blockAlign / header.sampleRate : null };
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
