/**
 * Engine `sherpa-separation`: stem separation (vocals / accompaniment) with Spleeter or UVR MDX-Net through
 * sherpa-onnx's C library (separation-library.ts). The upload is decoded as stereo at the model's rate, separated
 * window by window (separation-windows.ts), and each requested stem is brought to the output rate and channels and
 * written as its own artifact (vocals.wav, accompaniment.wav). The stems have the recording's length, so the billing
 * basis is the recording's length, as for the other audio products.
 */
import { isAbsolute, join } from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { JobError, jobCancelled } from '../../common/errors.js';
import type { ArtifactFile, Engine, EngineContext, EngineFactory, EngineOutput, EngineTask } from '../engine-types.js';
import type { BlockProcessor } from '../audio/block-processor.js';
import { interleave } from '../audio/pcm.js';
import { concat, createStreamResampler } from '../audio/stream-resampler.js';
import { inputFile } from '../audio/input-file.js';
import { PcmStreamWriter } from '../denoise/pcm-stream-writer.js';
import { probeSource } from '../denoise/probe-source.js';
import { createSeparator, type Separator, type SeparatorModel } from './separation-library.js';
import { resolveSeparationParams, STEM_NAMES, type StemName } from './separation-params.js';
import { separateBlocks } from './separation-windows.js';
import { decodeStereoBlocks, type StereoBlock } from './stereo-decode.js';
import { NO_AUDIO_SAMPLES, audioTooLong } from '../../common/error-messages.js';

/** engineConfig of a separation model (separation-families.ts). */
export interface SeparationEngineConfig {
  model: SeparatorModel;
  /** Longest input accepted (the catalogue's limits.max_audio_seconds); null = none. */
  maxAudioSeconds: number | null;
}

/** Seconds separated per window, and the context kept on each side of it. */
export const WINDOW_SECONDS = 30;
export const MARGIN_SECONDS = 1;

export function readSeparationConfig(config: Record<string, unknown>): SeparationEngineConfig {
  const model = config.model as Partial<Record<string, unknown>> | undefined;
  const absolute = (v: unknown): v is string => typeof v === 'string' && isAbsolute(v);
  const max = typeof config.maxAudioSeconds === 'number' && config.maxAudioSeconds > 0 ? config.maxAudioSeconds : null;
  if (model?.kind === 'spleeter' && absolute(model.vocals) && absolute(model.accompaniment)) {
    return { model: { kind: 'spleeter', vocals: model.vocals, accompaniment: model.accompaniment }, maxAudioSeconds: max };
  }
  if (model?.kind === 'uvr' && absolute(model.model)) return { model: { kind: 'uvr', model: model.model }, maxAudioSeconds: max };
  throw new JobError('model_unavailable', 'the separation model definition has no absolute model paths (engineConfig.model)');
}

function tooLong(seconds: number, max: number): JobError {
  return new JobError('audio_too_long', audioTooLong(seconds, max));
}

/** One stem's way out: its resamplers (one per output channel) and its file. */
interface StemSink {
  name: StemName;
  index: number;
  writer: PcmStreamWriter;
  resamplers: BlockProcessor[];
}

async function openSinks(task: EngineTask, stems: readonly StemName[], format: 'wav' | 'pcm', modelRate: number, outRate: number, channels: 1 | 2): Promise<StemSink[]> {
  const sinks: StemSink[] = [];
  try {
    for (const name of stems) {
      const writer = await PcmStreamWriter.create(join(task.workDir, `${name}.${format}`), format, outRate, channels);
      const sink: StemSink = { name, index: STEM_NAMES.indexOf(name), writer, resamplers: [] };
      sinks.push(sink);
      for (let c = 0; c < channels; c++) sink.resamplers.push(await createStreamResampler(modelRate, outRate));
    }
    return sinks;
  } catch (error) {
    await abandon(sinks);
    throw error;
  }
}

async function abandon(sinks: readonly StemSink[]): Promise<void> {
  for (const sink of sinks) {
    await sink.writer.abandon();
    for (const r of sink.resamplers) r.release?.();
  }
}

/** The stem's [left, right] in the sink's channel count, resampled; `last` flushes the resamplers. */
async function writeStem(sink: StemSink, stem: StereoBlock | null, last: boolean): Promise<void> {
  const inputs: Float32Array[] = !stem
    ? sink.resamplers.map(() => new Float32Array(0))
    : sink.resamplers.length === 1
      ? [stem[0].map((v, i) => (v + stem[1][i]!) / 2)]
      : [stem[0], stem[1]];
  const outs = sink.resamplers.map((r, c) => (last ? concat([r.push(inputs[c]!), r.finish()]) : r.push(inputs[c]!)));
  const n = Math.min(...outs.map((o) => o.length));
  await sink.writer.writeInterleaved(interleave(outs.map((o) => o.subarray(0, n))));
}

export async function runSeparationJob(task: EngineTask, ctx: EngineContext, separator: Separator, maxSeconds: number | null): Promise<EngineOutput> {
  const params = resolveSeparationParams(task.params);
  const file = await inputFile(task.input, () => new JobError('audio_decode_failed', 'stem-separation needs an audio file'));
  if (ctx.signal.aborted) throw jobCancelled();
  const source = await probeSource(file);
  const modelRate = separator.sampleRate;
  const outRate = params.outputSampleRate === 'source' ? (source?.sampleRate ?? modelRate) : params.outputSampleRate;
  const outChannels = params.outputChannels === 'source' ? (Math.min(2, source?.channels ?? 2) as 1 | 2) : params.outputChannels;
  const expectedSeconds = source?.durationSeconds ?? null;
  if (expectedSeconds !== null) {
    if (maxSeconds !== null && expectedSeconds > maxSeconds) throw tooLong(expectedSeconds, maxSeconds);
    ctx.measured(expectedSeconds);
  }
  const sinks = await openSinks(task, params.stems, params.outputFormat, modelRate, outRate, outChannels);
  let finished = false;
  try {
    let frames = 0;
    const blocks = decodeStereoBlocks(file, { rate: modelRate, blockFrames: modelRate * WINDOW_SECONDS, signal: ctx.signal });
    const separate = (window: StereoBlock) => {
      const stems = separator.process(window, modelRate);
      if (stems.length < STEM_NAMES.length) throw new JobError('engine_failed', `the separation model gave ${stems.length} stems; vocals and accompaniment were expected`);
      return stems;
    };
    for await (const piece of separateBlocks(limitLength(blocks, modelRate, maxSeconds), modelRate * MARGIN_SECONDS, separate)) {
      if (ctx.signal.aborted) throw jobCancelled();
      frames += piece.frames;
      for (const sink of sinks) await writeStem(sink, piece.stems[sink.index]!, false);
      if (expectedSeconds) ctx.progress(Math.min(0.99, frames / modelRate / expectedSeconds));
      // Lets the worker read a cancel message between windows.
      await yieldToEvents();
    }
    if (ctx.signal.aborted) throw jobCancelled();
    if (frames === 0) throw new JobError('audio_decode_failed', NO_AUDIO_SAMPLES);
    const artifacts: ArtifactFile[] = [];
    for (const sink of sinks) {
      await writeStem(sink, null, true);
      await sink.writer.close();
      artifacts.push({
        path: join(task.workDir, `${sink.name}.${params.outputFormat}`),
        contentType: sink.writer.contentType,
        durationSeconds: sink.writer.durationSeconds,
        sampleRate: outRate,
        channels: outChannels,
      });
    }
    finished = true;
    const durationSeconds = frames / modelRate;
    if (expectedSeconds === null) ctx.measured(durationSeconds);
    ctx.progress(1);
    return { result: { duration: durationSeconds, stems: [...params.stems] }, artifacts, durationSeconds };
  } finally {
    if (!finished) await abandon(sinks);
  }
}

/** Fails as soon as the decoded audio passes the model's limit (a file whose header did not state its length). */
async function* limitLength(blocks: AsyncIterable<StereoBlock>, rate: number, maxSeconds: number | null): AsyncGenerator<StereoBlock> {
  let frames = 0;
  for await (const block of blocks) {
    frames += block[0].length;
    if (maxSeconds !== null && frames / rate > maxSeconds) throw tooLong(frames / rate, maxSeconds);
    yield block;
  }
}

/** A worker keeps the separator of the last model it ran (loading one reads the model files again). */
const createSeparationEngine: EngineFactory = (): Engine => {
  let loaded: { key: string; separator: Separator } | null = null;
  const separatorFor = (model: SeparatorModel): Separator => {
    const key = JSON.stringify(model);
    if (loaded?.key === key) return loaded.separator;
    loaded?.separator.dispose();
    loaded = null;
    loaded = { key, separator: createSeparator(model) };
    return loaded.separator;
  };
  return {
    run: async (task, ctx) => {
      const config = readSeparationConfig(task.engineConfig);
      return runSeparationJob(task, ctx, separatorFor(config.model), config.maxAudioSeconds);
    },
    dispose: () => {
      loaded?.separator.dispose();
      loaded = null;
    },
  };
};

export default createSeparationEngine;
