/**
 * The reference recording of a zero-shot voice job, decoded to mono at the model's rate (24 kHz) whatever rate,
 * channels or container it came in (ffmpeg, or the WASM decoder without it), so sherpa-onnx's own resampler is never
 * asked. Its length was checked against 1-30 s when the request arrived (from the container's header); it is checked
 * again on the decoded samples, for files whose header states no length.
 */
import { JobError } from '../../common/errors.js';
import { decodeBlocks } from '../audio/decode.js';
import { concat } from '../audio/stream-resampler.js';
import { MAX_REFERENCE_SECONDS, MIN_REFERENCE_SECONDS } from './cloning-params.js';

/** The reference's samples at `rate`; refused when shorter than 1 s or longer than 30 s (decoding stops there). */
export async function decodeReference(file: string, rate: number, signal: AbortSignal, part: string): Promise<Float32Array> {
  const limit = Math.ceil(MAX_REFERENCE_SECONDS * rate);
  const blocks: Float32Array[] = [];
  let length = 0;
  for await (const block of decodeBlocks(file, { sampleRate: rate, signal, blockSamples: rate })) {
    blocks.push(block);
    length += block.length;
    if (length > limit + rate / 100) throw referenceLengthError(part, length / rate);
  }
  if (length < MIN_REFERENCE_SECONDS * rate) throw referenceLengthError(part, length / rate);
  return concat(blocks, length);
}

export function referenceLengthMessage(part: string, seconds: number): string {
  const shown = seconds < 10 ? seconds.toFixed(2) : String(Math.round(seconds));
  return seconds < MIN_REFERENCE_SECONDS
    ? `the ${part} recording is ${shown} s long; a voice needs at least ${MIN_REFERENCE_SECONDS} s of it (3-15 s of clear speech works best)`
    : `the ${part} recording is ${shown} s long; at most ${MAX_REFERENCE_SECONDS} s is taken: cut it to the clearest ${MAX_REFERENCE_SECONDS} s or less`;
}

function referenceLengthError(part: string, seconds: number): JobError {
  return new JobError('invalid_params', referenceLengthMessage(part, seconds));
}
