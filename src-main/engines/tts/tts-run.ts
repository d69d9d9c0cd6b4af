/**
 * Sentence-by-sentence synthesis shared by the TTS engines: progress = sentences done / total, cancellation
 * between sentences, then one encoded artifact in the job's workDir. durationSeconds (the billing basis) is the
 * generated audio's length.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JobError } from '../../common/errors.js';
import { textLength, textTooLongMessage } from '../../common/text-length.js';
import { checkOutputOptions, encodeOutput, outputOptionsFromParams } from '../audio/encode.js';
import { splitSentences } from '../audio/sentences.js';
import type { EngineContext, EngineOutput, EngineTask } from '../engine-types.js';

/** Engines that speak through runTts: a text with no words (audio/sentences.ts hasSpeech) gives them nothing to say. */
export const SENTENCE_TTS_ENGINES: ReadonlySet<string> = new Set(['espeak', 'sherpa-tts']);

export interface SentenceSynthesizer {
  readonly sampleRate: number;
  /** Speaks one sentence; an empty result is allowed (punctuation only). */
  synthesize(sentence: string): Promise<Float32Array>;
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
  const pieces: Float32Array[] = [];
  let total = 0;
  for (let i = 0; i < sentences.length; i++) {
    // Yield so that a cancel message (an event on this process) can abort the signal between sentences.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (ctx.signal.aborted) throw new JobError('cancelled', 'the job was cancelled');
    const samples = await synth.synthesize(sentences[i]!);
    pieces.push(samples);
    total += samples.length;
    ctx.progress((i + 1) / sentences.length);
  }
  if (total === 0) throw new JobError('engine_failed', 'the voice produced no audio for this text');
  const all = new Float32Array(total);
  let offset = 0;
  for (const piece of pieces) {
    all.set(piece, offset);
    offset += piece.length;
  }
  const encoded = await encodeOutput(all, synth.sampleRate, output);
  const path = join(task.workDir, `speech.${encoded.extension}`);
  await writeFile(path, encoded.bytes);
  return {
    result: {},
    artifacts: [
      {
        path,
        contentType: encoded.contentType,
        durationSeconds: encoded.durationSeconds,
        sampleRate: encoded.sampleRate,
        channels: encoded.channels,
      },
    ],
    durationSeconds: encoded.durationSeconds,
  };
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
  const output = outputOptionsFromParams({});
  for (let round = 0; round < rounds; round++) {
    const pieces = await Promise.all(WARM_TEXT.map((sentence) => synth.synthesize(sentence)));
    const all = new Float32Array(pieces.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const piece of pieces) {
      all.set(piece, offset);
      offset += piece.length;
    }
    await encodeOutput(all, synth.sampleRate, output);
  }
}
