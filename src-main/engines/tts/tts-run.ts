/**
 * Sentence-by-sentence synthesis shared by the TTS engines: progress = sentences done / total, cancellation
 * between sentences, and each sentence's audio encoded into the job's artifact as soon as it is made — and, when
 * someone listens (task.streamAudio, a streamed HTTP answer), sent to the parent as encoded bytes at the same
 * moment. durationSeconds (the billing basis) is the generated audio's length.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { jobCancelled, JobError } from '../../common/errors.js';
import { textLength, textTooLongMessage } from '../../common/text-length.js';
import { checkOutputOptions, outputOptionsFromParams, resolvedOutput } from '../audio/encode.js';
import { EncodedFileWriter, inOrderOnly } from '../audio/encoded-sink.js';
import { splitSentences } from '../audio/sentences.js';
import { createSpeechEncoder, OUTPUT_EXTENSIONS } from '../audio/stream-encoder.js';
import type { EngineContext, EngineOutput, EngineTask } from '../engine-types.js';
import { silentLog } from '../../common/log.js';

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
      if (ctx.signal.aborted) throw jobCancelled();
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

/**
 * What warming a sentence engine speaks. eSpeak runs as wasm2js (JavaScript): V8 optimises its big functions only
 * after they have run enough, and a sentence uses the code its letters, digits and punctuation need. Two short
 * sentences spoken without the job's chunk callbacks left the first jobs 5-20× slower than warm ones (0.3-1.3 s vs
 * 20-60 ms at load 6-11); these four (every letter, digits, a time and a date, a question, an exclamation), spoken
 * through the job's own path, bring the first job close to warm speed for about 0.5 s more at start
 * (bench/tts-rtf.ts tts-job first_over_warm_p50).
 */
const WARM_TEXT = [
  'The quick brown fox jumps over the lazy dog.',
  'Pack my box with five dozen liquor jugs!',
  'How vexingly quick daft zebras jump?',
  'It is 3:45 pm on 12 March 2024, and 67 percent of the 1,000 jobs are done.',
].join(' ');

/**
 * Warm-up rounds: at least WARM_MIN_ROUNDS, at most WARM_MAX_ROUNDS; it stops once two rounds in a row agree (the
 * slower within WARM_SETTLED× of the faster). The rule it replaces stopped at the first round not 1.25× faster than
 * the best so far, so one round slowed by another process (2 cores shared with the service, the UI, other programs)
 * ended the warm-up while eSpeak was still being optimised, and the first job ran 20-80 ms against a warm 13-30 ms.
 */
const WARM_MIN_ROUNDS = 3;
const WARM_MAX_ROUNDS = 6;
const WARM_SETTLED = 1.25;

/** Whether the warm-up can stop after these round times (ms, in order): enough rounds, and the last two agree. */
export function warmSettled(rounds: readonly number[]): boolean {
  if (rounds.length >= WARM_MAX_ROUNDS) return true;
  if (rounds.length < WARM_MIN_ROUNDS) return false;
  const last = rounds[rounds.length - 1]!;
  const before = rounds[rounds.length - 2]!;
  return Math.max(last, before) <= WARM_SETTLED * Math.min(last, before);
}

/**
 * Engine.warm for sentence engines: a job speaking WARM_TEXT through the engine's own `run` with the params a default
 * job gets (voice, sentence splitting, the pieces as they are made, the encoder, the file written), in a private
 * temporary folder removed afterwards, so the first job after start does not pay for compiling that code (the
 * engine and the encoders start on a baseline tier and are optimised as they run). One round was not enough: V8
 * optimises eSpeak's big functions over the first runs, so the first job still ran 10-40× slower than warm ones;
 * rounds repeat until two in a row agree (warmSettled: three to six, about 1.5-2.5 s of one core at start on an
 * idle machine). It stops between sentences when `signal` aborts (the worker was given a job: the job is not kept
 * waiting for the rest of the warm-up).
 */
export async function warmTts(
  run: (task: EngineTask, ctx: EngineContext) => Promise<EngineOutput>,
  job: Pick<EngineTask, 'engine' | 'params'>,
  signal: AbortSignal = new AbortController().signal,
): Promise<void> {
  const workDir = await mkdtemp(join(tmpdir(), 'voxdesk-warm-'));
  try {
    const task: EngineTask = { jobId: 'warm-up', product: 'text-to-speech', modelId: 'warm-up', engineConfig: {}, input: { text: WARM_TEXT }, workDir, ...job };
    const ctx: EngineContext = { signal, progress: () => {}, measured: () => {}, log: silentLog };
    const rounds: number[] = [];
    while (!signal.aborted) {
      const started = performance.now();
      try {
        await run(task, ctx);
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      rounds.push(performance.now() - started);
      if (warmSettled(rounds)) return;
      await new Promise<void>((resolve) => setImmediate(resolve)); // a job's message can arrive in between
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
