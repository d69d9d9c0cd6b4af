/**
 * Cuts a stretch of a recording out as a 16 kHz mono PCM16 WAV, for re-transcribing a range of a transcript
 * (EngineInput.range). The worker does it before the engine runs, so every engine — sherpa-onnx, PocketSphinx, the
 * test engine — transcribes the range as if it were the whole recording, with the checkpoints and billed duration of
 * a recording that long. The recording is decoded from its start and the samples are counted (as a resumed
 * transcription does, skip-samples.ts): decoding is exact where seeking into compressed audio is not, so every run
 * of a resumed job cuts the very same samples and its checkpoints stay valid.
 */
import { unlink } from 'node:fs/promises';
import { JobError } from '../../common/errors.js';
import type { AudioRange } from '../engine-types.js';
import { ASR_SAMPLE_RATE, decodeBlocks } from './decode.js';
import { floatToS16le } from './pcm.js';
import { WavStreamWriter } from './wav-stream-writer.js';

/** Samples of a range at the recognizers' rate: whole milliseconds are whole samples (16 per ms). */
export function rangeSamples(range: AudioRange): { from: number; count: number } {
  const from = Math.round(range.start * ASR_SAMPLE_RATE);
  return { from, count: Math.round(range.end * ASR_SAMPLE_RATE) - from };
}

/**
 * Writes `range` of `file` to `out` and answers the seconds written (less than the range when the recording ends
 * sooner). A range that starts after the recording's end fails the job with audio_decode_failed, saying so.
 */
export async function cutRange(file: string, range: AudioRange, out: string, signal?: AbortSignal): Promise<number> {
  const { from, count } = rangeSamples(range);
  const writer = new WavStreamWriter(out, ASR_SAMPLE_RATE);
  let seen = 0;
  let written = 0;
  try {
    for await (const block of decodeBlocks(file, { signal })) {
      const blockStart = seen;
      seen += block.length;
      if (seen <= from) continue;
      const begin = Math.max(0, from - blockStart);
      const end = Math.min(block.length, from + count - blockStart);
      if (end > begin) {
        writer.write(floatToS16le(block.subarray(begin, end)));
        written += end - begin;
      }
      if (written >= count) break;
    }
    await writer.finish();
  } catch (error) {
    writer.abort();
    await unlink(out).catch(() => undefined);
    throw error;
  }
  if (written === 0) {
    await unlink(out).catch(() => undefined);
    throw new JobError('audio_decode_failed', `the range ${range.start}–${range.end} s starts after the recording's end (${(seen / ASR_SAMPLE_RATE).toFixed(3)} s)`);
  }
  return written / ASR_SAMPLE_RATE;
}
