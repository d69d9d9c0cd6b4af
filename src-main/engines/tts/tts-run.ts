/**
 * Sentence-by-sentence synthesis shared by the TTS engines: progress = sentences done / total, cancellation
 * between sentences, and each sentence's audio encoded into the job's artifact as soon as it is made — and, when
 * someone listens (task.streamAudio, a streamed HTTP answer), sent to the parent as encoded bytes at the same
 * moment. durationSeconds (the billing basis) is the generated audio's length.
 */
import { join } from 'node:path';
import { JobError } from '../../common/errors.js';
import { textLength, textTooLongMessage } from '../../common/text-length.js';
import { checkOutputOptions, outputOptionsFromParams, resolvedOutput } from '../audio/encode.js';
import { EncodedFileWriter, inOrderOnly } from '../audio/encoded-sink.js';
import { splitSentences } from '../audio/sentences.js';
import { createSpeechEncoder, OUTPUT_EXTENSIONS } from '../audio/stream-encoder.js';
import type { EngineContext, EngineOutput, EngineTask } from '../engine-types.js';

/** Engines that speak through runTts: a text with no words (audio/sentences.ts hasSpeech) gives them nothing to say. */
export const SENTENCE_TTS_ENGINES: ReadonlySet<string> = new Set(['espeak', 'sherpa-tts']);

export interface SentenceSynthesizer {
  readonly sampleRate: number;
  /**
   * Speaks one sentence; an empty result is allowed (punctuation only). Engines that make audio in pieces (eSpeak)
   * also hand each piece to `onChunk` as it is made, so a streamed answer need not wait for the sentence's end.
   */
  synthesize(sentence: string, onChunk?: (samples: Float32Array) => void): Promise<Float32Array>;
}

/**
 * Checks the text before any work: present, speakable, within the model's limit (counted in code points, as the
 * request check counts: common/text-length.ts — the service refuses a long text before it becomes a job).
 */
export function sentencesOf(text: unknown, maxChars: number | null): string[] {
  if (typeof text !== 'string' || text.trim() === '') throw new JobError('text_required', 'text is required');
  const length = textLength(text);
  if (maxChars !== null && length > maxChars) throw new JobError('text_too_long', textTooLongMessage('text', length, maxChars));
  const sentences = splitSentences(text);
  if (sentences.length === 0) throw new JobError('text_required', 'text has no words to speak');
  return sentences;
}

export async function runTts(
  task: EngineTask,
  ctx: EngineContext,
  synth: SentenceSynthesizer,
  maxTextChars: number | null,
): Promise<EngineOutput> {
  const sentences = sentencesOf(task.input.text, maxTextChars);
  const output = outputOptionsFromParams(task.params);
  checkOutputOptions(output, synth.sampleRate);
  const resolved = resolvedOutput(output, synth.sampleRate);
  const path = join(task.workDir, `speech.${OUTPUT_EXTENSIONS[resolved.format]}`);
  const file = new EncodedFileWriter(path);
  const stream = task.streamAudio && ctx.audio ? inOrderOnly(ctx.audio) : null;
  let encoder: Awaited<ReturnType<typeof createSpeechEncoder>> | null = null;
  try {
    encoder = await createSpeechEncoder(resolved, synth.sampleRate, (bytes, position) => {
      file.sink(bytes, position);
      stream?.(bytes, position);
    });
    let total = 0;
    for (let i = 0; i < sentences.length; i++) {
      // Yield so that a cancel message (an event on this process) can abort the signal between sentences (not before
      // the first: nothing could have arrived, and the first audio should not wait).
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (ctx.signal.aborted) throw new JobError('cancelled', 'the job was cancelled');
      // Pieces are encoded (and streamed) as the engine makes them; engines without pieces give the whole sentence.
      const pushed: Promise<void>[] = [];
      const into = encoder;
      const samples = await synth.synthesize(sentences[i]!, (chunk) => pushed.push(into.push(chunk)));
      total += samples.length;
      if (pushed.length > 0) await Promise.all(pushed);
      else await encoder.push(samples);
      ctx.progress((i + 1) / sentences.length);
    }
    if (total === 0) throw new JobError('engine_failed', 'the voice produced no audio for this text');
    const { durationSeconds } = await encoder.finish();
    await file.close();
    return {
      result: {},
      artifacts: [{ path, contentType: encoder.contentType, durationSeconds, sampleRate: encoder.sampleRate, channels: encoder.channels }],
      durationSeconds,
    };
  } catch (error) {
    encoder?.abort();
    await file.close().catch(() => undefined);
    throw error;
  }
}

/** What warming a sentence engine speaks: two short sentences, so both the first and a following one are compiled. */
const WARM_TEXT = ['Ready.', 'The voice is warm now.'];

/**
 * Engine.warm for sentence engines: speaks WARM_TEXT and encodes it in the default output format, in memory, `rounds`
 * times — the same code a job runs, so the first job after start does not pay for compiling it (WebAssembly and the
 * encoders start on a baseline tier and are optimised as they run). One round: workers warm while the person may
 * already be starting a transcription, and more rounds did not make the next jobs measurably faster on a loaded machine.
 */
export async function warmTts(synth: SentenceSynthesizer, rounds = 1): Promise<void> {
  const resolved = resolvedOutput(outputOptionsFromParams({}), synth.sampleRate);
  for (let round = 0; round < rounds; round++) {
    // The streaming encoder a job uses, into a sink that keeps nothing.
    const encoder = await createSpeechEncoder(resolved, synth.sampleRate, () => undefined);
    for (const sentence of WARM_TEXT) await encoder.push(await synth.synthesize(sentence));
    await encoder.finish();
  }
}
