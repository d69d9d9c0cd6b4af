/**
 * Audio length before recognition (the job's duration_seconds, the billing basis). ffprobe reads the container's
 * duration in milliseconds; where the container does not say (MediaRecorder webm, raw streams) or ffprobe is
 * absent, the file is decoded once and its samples counted (streamed, constant memory).
 */
import { execFile } from 'node:child_process';
import { JobError } from '../../common/errors.js';
import { ASR_SAMPLE_RATE, decodeBlocks, findExecutable, type DecodeOptions } from './decode.js';

/** ffprobe's path, or null. `VOXDESK_FFPROBE` overrides (a path, or `none`); default: `ffprobe` on PATH. */
export function findFfprobe(): string | null {
  return findExecutable('ffprobe', process.env.VOXDESK_FFPROBE);
}

/** Seconds of audio in `file`. Corrupt or non-audio → JobError('audio_decode_failed'); empty audio → 0. */
export async function probeDuration(file: string, options: Pick<DecodeOptions, 'signal' | 'decoder'> = {}): Promise<number> {
  const ffprobe = options.decoder === 'wasm' ? null : findFfprobe();
  if (ffprobe) {
    const seconds = await ffprobeDuration(ffprobe, file);
    if (seconds !== null) return seconds;
  }
  return countDecodedSeconds(file, options);
}

/**
 * The length a recording's container states, read by ffprobe in its own process (milliseconds, nothing decoded), or
 * null when ffprobe is absent, cannot read the file or the container does not say. For pricing a job when it is
 * accepted: the service must not decode whole files on its request path.
 */
export async function statedDuration(file: string): Promise<number | null> {
  const ffprobe = findFfprobe();
  if (!ffprobe) return null;
  try {
    return await ffprobeDuration(ffprobe, file);
  } catch {
    return null; // no audio stream: the job fails when it runs, and a failed job is not charged
  }
}

/** The container's duration, or null when it does not state one (or ffprobe cannot read the file). */
async function ffprobeDuration(ffprobe: string, file: string): Promise<number | null> {
  const args = ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration:format=duration', '-of', 'json', file];
  const stdout = await new Promise<string | null>((resolve) => {
    execFile(ffprobe, args, { timeout: 30_000, maxBuffer: 1 << 20 }, (error, out) => resolve(error ? null : out));
  });
  if (stdout === null) return null;
  try {
    const parsed = JSON.parse(stdout) as { streams?: { duration?: string }[]; format?: { duration?: string } };
    if (!parsed.streams || parsed.streams.length === 0) {
      throw new JobError('audio_decode_failed', 'the file has no audio stream');
    }
    const value = Number(parsed.streams[0]?.duration ?? parsed.format?.duration);
    return Number.isFinite(value) && value >= 0 ? value : null;
  } catch (cause) {
    if (cause instanceof JobError) throw cause;
    return null;
  }
}

async function countDecodedSeconds(file: string, options: Pick<DecodeOptions, 'signal' | 'decoder'>): Promise<number> {
  let samples = 0;
  for await (const block of decodeBlocks(file, { ...options, blockSamples: 30 * ASR_SAMPLE_RATE })) samples += block.length;
  return samples / ASR_SAMPLE_RATE;
}
