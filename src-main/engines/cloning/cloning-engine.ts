/**
 * Engine `sherpa-cloning`: voice-cloning (speak a text in the voice of an uploaded recording) and voice-continuation
 * (an uploaded recording followed by new speech in its voice) with ZipVoice or Pocket TTS through sherpa-onnx-node;
 * voice-conversion (voice-conversion.ts) re-voices a recording with the same model.
 * The reference is decoded to mono at the model's rate (reference-audio.ts), its words come from the request or the
 * recognizer chosen when it was accepted (reference-transcript.ts), the model speaks the text, and the result is
 * encoded like text to speech (wav default) and marked as synthetic (synthetic-tag.ts, result.synthetic). The billing
 * basis is the generated speech's length, not the original the continuation repeats. When someone listens to the
 * job's audio as it is made (task.streamAudio: the OpenAI-compatible speech route in a saved cloned voice) in a format
 * other than WAV, the text is spoken sentence by sentence and each sentence's encoded bytes are sent as soon as it is
 * made, as text to speech does (tts/tts-run.ts); otherwise the model is given the whole text at once (it splits it at
 * punctuation itself).
 */
import { join } from 'node:path';
import { jobCancelled, JobError } from '../../common/errors.js';
import { textLength, textTooLongMessage } from '../../common/text-length.js';
import { checkOutputOptions, outputOptionsFromParams, resolvedOutput } from '../audio/encode.js';
import { EncodedFileWriter, inOrderOnly } from '../audio/encoded-sink.js';
import { splitSentences } from '../audio/sentences.js';
import { createSpeechEncoder, OUTPUT_EXTENSIONS } from '../audio/stream-encoder.js';
import type { Engine, EngineContext, EngineFactory, EngineOutput, EngineTask } from '../engine-types.js';
import { isCloningFamily, type CloningEngineConfig } from './cloning-families.js';
import { MAX_CLONING_TEXT_CHARS, resolveCloningParams } from './cloning-params.js';
import { ZeroShotVoice } from './cloning-runtime.js';
import { decodeReference } from './reference-audio.js';
import { transcribeReference } from './reference-transcript.js';
import { tagSyntheticWav } from './synthetic-tag.js';
import { runConversionJob } from './voice-conversion.js';

export function readCloningConfig(config: Record<string, unknown>): CloningEngineConfig {
  const c = config as Partial<CloningEngineConfig>;
  if (typeof c.family !== 'string' || !isCloningFamily(c.family) || typeof c.model !== 'object' || c.model === null || !c.model[c.family]) {
    throw new JobError('model_unavailable', 'the model has no usable ZipVoice or Pocket TTS settings (engineConfig.family, engineConfig.model)');
  }
  return c as CloningEngineConfig;
}

function textOf(task: EngineTask): string {
  const text = task.input.text;
  if (typeof text !== 'string' || text.trim() === '') throw new JobError('text_required', 'text is required: the words to speak in the cloned voice');
  const length = textLength(text);
  if (length > MAX_CLONING_TEXT_CHARS) throw new JobError('text_too_long', textTooLongMessage('text', length, MAX_CLONING_TEXT_CHARS));
  return text;
}

/** The uploaded recording the voice comes from: the cloning reference, or the recording a continuation continues. */
function referenceOf(task: EngineTask): { path: string; part: string } {
  const continuation = task.product === 'voice-continuation';
  const path = continuation ? task.input.filePath : task.input.referencePath;
  if (!path) throw new JobError('audio_decode_failed', continuation ? 'voice-continuation needs the audio part' : 'voice-cloning needs the reference_audio part');
  return { path, part: continuation ? 'audio' : 'reference_audio' };
}

export async function runCloningJob(task: EngineTask, ctx: EngineContext, voice: ZeroShotVoice): Promise<EngineOutput> {
  const params = resolveCloningParams(task.params);
  const text = textOf(task);
  const output = outputOptionsFromParams(task.params);
  checkOutputOptions(output, voice.sampleRate);
  const resolved = resolvedOutput(output, voice.sampleRate);
  const reference = referenceOf(task);
  const samples = await decodeReference(reference.path, voice.sampleRate, ctx.signal, reference.part);
  if (ctx.signal.aborted) throw jobCancelled();
  ctx.progress(0.05);
  const referenceText =
    task.input.referenceText?.trim() ||
    (voice.family === 'zipvoice' ? await transcribeWith(task, ctx, reference.path) : null);
  if (ctx.signal.aborted) throw jobCancelled();
  ctx.progress(0.1);
  // A WAV is not streamed: its synthetic mark (a chunk after the audio) needs the file's real sizes, which a stream
  // cannot give, so a listener gets the tagged file once it is done. The other formats carry no mark in the file.
  const stream = task.streamAudio && ctx.audio && resolved.format !== 'wav' ? inOrderOnly(ctx.audio) : null;
  const withOriginal = task.product === 'voice-continuation' && params.includeOriginal;
  const path = join(task.workDir, `${task.product === 'voice-continuation' ? 'continuation' : 'speech'}.${OUTPUT_EXTENSIONS[resolved.format]}`);
  const file = new EncodedFileWriter(path);
  let encoder: Awaited<ReturnType<typeof createSpeechEncoder>> | null = null;
  try {
    encoder = await createSpeechEncoder(resolved, voice.sampleRate, (bytes, position) => {
      file.sink(bytes, position);
      stream?.(bytes, position);
    });
    if (withOriginal) await encoder.push(samples);
    // Streamed: one sentence at a time, each encoded (and sent) as soon as it is made.
    const pieces = stream ? splitSentences(text) : [];
    const texts = pieces.length > 0 ? pieces : [text];
    let generated = 0;
    for (let i = 0; i < texts.length; i++) {
      const made = await voice.speak({
        text: texts[i]!,
        reference: samples,
        referenceRate: voice.sampleRate,
        referenceText,
        numSteps: params.numSteps,
        speed: params.speed,
        onProgress: (fraction) => {
          ctx.progress(0.1 + (0.85 * (i + Math.min(1, fraction))) / texts.length);
          return !ctx.signal.aborted;
        },
      });
      if (ctx.signal.aborted) throw jobCancelled();
      generated += made.length;
      await encoder.push(made);
    }
    if (generated === 0) throw new JobError('engine_failed', `the ${voice.family} model produced no audio for this text`);
    const { durationSeconds } = await encoder.finish();
    await file.close();
    if (resolved.format === 'wav') await tagSyntheticWav(path);
    const generatedSeconds = generated / voice.sampleRate;
    ctx.progress(1);
    return {
      result: {
        duration: durationSeconds,
        synthetic: true,
        voice_source: reference.part,
        ...(referenceText ? { reference_text: referenceText } : {}),
        ...(task.product === 'voice-continuation' ? { continuation_start: withOriginal ? samples.length / voice.sampleRate : 0 } : {}),
      },
      artifacts: [{ path, contentType: encoder.contentType, durationSeconds, sampleRate: encoder.sampleRate, channels: encoder.channels }],
      durationSeconds: generatedSeconds,
    };
  } catch (error) {
    encoder?.abort();
    await file.close().catch(() => undefined);
    throw error;
  }
}

async function transcribeWith(task: EngineTask, ctx: EngineContext, file: string): Promise<string> {
  const transcriber = task.input.transcriber;
  if (!transcriber) {
    throw new JobError('invalid_params', 'reference_text is required: no speech-to-text model was installed to transcribe the reference when the request arrived');
  }
  return transcribeReference(file, transcriber, task, ctx);
}

/** A worker keeps the voice of the last model it ran (loading one reads the model files again). */
const createCloningEngine: EngineFactory = (): Engine => {
  let loaded: { key: string; voice: Promise<ZeroShotVoice> } | null = null;
  const voiceFor = (config: CloningEngineConfig): Promise<ZeroShotVoice> => {
    const key = JSON.stringify(config.model);
    if (loaded?.key !== key) {
      const voice = ZeroShotVoice.load(config);
      voice.catch(() => {
        if (loaded?.voice === voice) loaded = null;
      });
      loaded = { key, voice };
    }
    return loaded.voice;
  };
  return {
    run: async (task, ctx) => {
      const voice = await voiceFor(readCloningConfig(task.engineConfig));
      return task.product === 'voice-conversion' ? runConversionJob(task, ctx, voice) : runCloningJob(task, ctx, voice);
    },
    dispose: () => {
      loaded = null;
    },
  };
};

export default createCloningEngine;
