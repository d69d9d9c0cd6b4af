/**
 * voice-conversion on a zero-shot voice (engine `sherpa-cloning`): the recording's words and their times are found by
 * an installed recognizer (EngineInput.transcriber), then each utterance is spoken again by ZipVoice or Pocket TTS in
 * the voice of reference_audio and laid at its original start, fitted to the time it had: a shorter one is followed by
 * silence, a longer one is spoken again faster (up to speed 2) and, still too long, cut with a short fade at the next
 * utterance's start. So the words and their timing are kept; intonation, emotion, emphasis, laughter and every
 * non-speech sound are not (the model reads the words anew). The artifact has the recording's exact length, which is
 * the billing basis, as for the other audio products.
 */
import { join } from 'node:path';
import type { TranscriptSegment } from '../../common/api-types.js';
import { jobCancelled, JobError } from '../../common/errors.js';
import { checkOutputOptions, outputOptionsFromParams, resolvedOutput } from '../audio/encode.js';
import { EncodedFileWriter } from '../audio/encoded-sink.js';
import { decodeBlocks } from '../audio/decode.js';
import { concat } from '../audio/stream-resampler.js';
import { createSpeechEncoder, OUTPUT_EXTENSIONS } from '../audio/stream-encoder.js';
import type { EngineContext, EngineOutput, EngineTask } from '../engine-types.js';
import { MAX_CONVERSION_SECONDS, resolveCloningParams } from './cloning-params.js';
import type { ZeroShotVoice } from './cloning-runtime.js';
import { decodeReference } from './reference-audio.js';
import { recognizeRecording, transcribeReference } from './reference-transcript.js';
import { tagSyntheticWav } from './synthetic-tag.js';
import { NO_AUDIO_SAMPLES } from '../../common/error-messages.js';

/** Fastest an utterance is spoken again to fit its time. */
const MAX_FIT_SPEED = 2;
/** An utterance up to this much longer than its time is left to run into the pause after it. */
const FIT_SLACK = 1.1;
const FADE_SECONDS = 0.01;

/** How an utterance was fitted to its time. */
export type Fit = NonNullable<TranscriptSegment['fit']>;

async function decodeRecording(file: string, rate: number, signal: AbortSignal): Promise<Float32Array> {
  const blocks: Float32Array[] = [];
  let length = 0;
  for await (const block of decodeBlocks(file, { sampleRate: rate, signal })) {
    blocks.push(block);
    length += block.length;
    if (length > MAX_CONVERSION_SECONDS * rate) {
      throw new JobError('audio_too_long', `the recording is longer than ${MAX_CONVERSION_SECONDS} s; voice-conversion takes up to ${MAX_CONVERSION_SECONDS / 60} minutes: cut it into parts`);
    }
  }
  if (length === 0) throw new JobError('audio_decode_failed', NO_AUDIO_SAMPLES);
  return concat(blocks, length);
}

/** `speech` laid into `out` from `at`, at most `room` samples of it, the cut end faded out. */
export function layInto(out: Float32Array, speech: Float32Array, at: number, room: number, rate: number): boolean {
  const n = Math.max(0, Math.min(speech.length, room, out.length - at));
  const cut = n < speech.length;
  const fade = cut ? Math.min(n, Math.round(FADE_SECONDS * rate)) : 0;
  for (let i = 0; i < n; i++) {
    const gain = i >= n - fade ? (n - i) / fade : 1;
    out[at + i] = out[at + i]! + speech[i]! * gain;
  }
  return cut;
}

export async function runConversionJob(task: EngineTask, ctx: EngineContext, voice: ZeroShotVoice): Promise<EngineOutput> {
  const params = resolveCloningParams(task.params);
  const output = outputOptionsFromParams(task.params);
  checkOutputOptions(output, voice.sampleRate);
  const resolved = resolvedOutput(output, voice.sampleRate);
  const rate = voice.sampleRate;
  const { filePath, referencePath, transcriber } = task.input;
  if (!filePath) throw new JobError('audio_decode_failed', 'voice-conversion needs the file part (the speech to re-voice)');
  if (!referencePath) throw new JobError('invalid_params', 'voice-conversion on this model needs the reference_audio part (the voice to speak in)');
  if (!transcriber) throw new JobError('model_unavailable', 'voice-conversion needs a speech-to-text model: none was installed when the request arrived');

  const recording = await decodeRecording(filePath, rate, ctx.signal);
  ctx.measured(recording.length / rate);
  const reference = await decodeReference(referencePath, rate, ctx.signal, 'reference_audio');
  if (ctx.signal.aborted) throw jobCancelled();
  const heard = await recognizeRecording(filePath, transcriber, task, ctx, 'recording');
  const segments = heard.segments.filter((s) => s.text.trim() !== '' && s.end > s.start);
  if (segments.length === 0) throw new JobError('invalid_params', `${transcriber.modelId} heard no words in the recording: there is nothing to re-voice`);
  ctx.progress(0.2);
  const referenceText = task.input.referenceText?.trim() || (voice.family === 'zipvoice' ? await transcribeReference(referencePath, transcriber, task, ctx) : null);
  if (ctx.signal.aborted) throw jobCancelled();
  ctx.progress(0.25);

  const out = new Float32Array(recording.length);
  const fitted: TranscriptSegment[] = [];
  const speak = (text: string, speed: number) =>
    voice.speak({ text, reference, referenceRate: rate, referenceText, numSteps: params.numSteps, speed, onProgress: () => !ctx.signal.aborted });
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const at = Math.round(segment.start * rate);
    const span = Math.max(1, Math.round(segment.end * rate) - at);
    const nextStart = i + 1 < segments.length ? Math.round(segments[i + 1]!.start * rate) : out.length;
    let speech = await speak(segment.text, params.speed);
    let fit: Fit = 'padded';
    if (speech.length > span * FIT_SLACK && params.speed < MAX_FIT_SPEED) {
      speech = await speak(segment.text, Math.min(MAX_FIT_SPEED, (params.speed * speech.length) / span));
      fit = 'sped_up';
    }
    if (ctx.signal.aborted) throw jobCancelled();
    if (layInto(out, speech, at, Math.max(span, nextStart - at), rate)) fit = 'cut';
    fitted.push({ id: i, start: segment.start, end: segment.end, text: segment.text.trim(), fit });
    ctx.progress(0.25 + (0.7 * (i + 1)) / segments.length);
  }

  const path = join(task.workDir, `converted.${OUTPUT_EXTENSIONS[resolved.format]}`);
  const file = new EncodedFileWriter(path);
  let encoder: Awaited<ReturnType<typeof createSpeechEncoder>> | null = null;
  try {
    encoder = await createSpeechEncoder(resolved, rate, (bytes, position) => file.sink(bytes, position));
    await encoder.push(out);
    const { durationSeconds } = await encoder.finish();
    await file.close();
    if (resolved.format === 'wav') await tagSyntheticWav(path);
    ctx.progress(1);
    return {
      result: {
        text: fitted.map((s) => s.text).join(' '),
        segments: fitted,
        duration: durationSeconds,
        synthetic: true,
        voice_source: 'reference_audio',
        ...(referenceText ? { reference_text: referenceText } : {}),
      },
      artifacts: [{ path, contentType: encoder.contentType, durationSeconds, sampleRate: encoder.sampleRate, channels: encoder.channels }],
      durationSeconds: recording.length / rate,
    };
  } catch (error) {
    encoder?.abort();
    await file.close().catch(() => undefined);
    throw error;
  }
}
