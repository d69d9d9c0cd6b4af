/**
 * The job shared by both denoisers: decode the upload in mono blocks at its own rate (the work rate), bring each
 * block to the denoiser's rate and back, blend with the original by `strength`, convert to the requested
 * rate/channels and append it to the artifact. Every stage streams, so memory stays at a few blocks on a file of any
 * length; the artifact has the input's duration (round(n · out_rate / work_rate) samples).
 */
import { join } from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { jobCancelled, JobError } from '../../common/errors.js';
import type { EngineContext, EngineOutput, EngineTask } from '../engine-types.js';
import type { BlockProcessor } from '../audio/block-processor.js';
import { resolveDenoiseParams } from './denoise-params.js';
import { DryWetMixer } from './dry-wet-mixer.js';
import { PcmStreamWriter } from './pcm-stream-writer.js';
import { probeSource } from './probe-source.js';
import { decodeBlocks } from '../audio/decode.js';
import { concat, createStreamResampler } from '../audio/stream-resampler.js';
import { inputFile } from '../audio/input-file.js';
import { NO_AUDIO_SAMPLES, audioTooLong } from '../../common/error-messages.js';

/** Work rate when the source rate is unknown (decode.ts's rate). */
const FALLBACK_RATE = 16_000;
/** Bounds of the work rate: a 96 kHz master is denoised at 48 kHz (RNNoise's own rate), 8 kHz stays 8 kHz. */
const MIN_WORK_RATE = 8000;
const MAX_WORK_RATE = 48_000;
/** Seconds per decoded block: 1 s keeps progress and cancellation responsive. */
export const DENOISE_BLOCK_SECONDS = 1;

/** engineConfig.maxAudioSeconds: longest input the model accepts (catalogue limits.max_audio_seconds); null = none. */
export function readMaxSeconds(config: Record<string, unknown>): number | null {
  const value = config.maxAudioSeconds;
  return typeof value === 'number' && value > 0 ? value : null;
}

function tooLong(seconds: number, max: number): JobError {
  return new JobError('audio_too_long', audioTooLong(seconds, max));
}

export interface DenoiserSpec {
  /** Name for logs and messages. */
  label: string;
  /** Rate the denoiser runs at. */
  rate: number;
  /** A fresh denoiser stream for one job (same length in, same length out). */
  create(): Promise<BlockProcessor>;
}

export async function runDenoiseJob(task: EngineTask, ctx: EngineContext, denoiser: DenoiserSpec): Promise<EngineOutput> {
  const params = resolveDenoiseParams(task.params);
  const file = await inputFile(task.input, () => new JobError('audio_decode_failed', `${task.product} needs an audio file`));
  const maxSeconds = readMaxSeconds(task.engineConfig);
  if (ctx.signal.aborted) throw jobCancelled();

  const source = await probeSource(file);
  if (!source) ctx.log.info(`${denoiser.label}: source rate/channels unknown; "source" output means 16 kHz mono`);
  const sourceRate = source?.sampleRate ?? FALLBACK_RATE;
  const workRate = Math.min(MAX_WORK_RATE, Math.max(MIN_WORK_RATE, sourceRate));
  const outRate = params.outputSampleRate === 'source' ? sourceRate : params.outputSampleRate;
  const outChannels = params.outputChannels === 'source' ? (Math.min(2, source?.channels ?? 1) as 1 | 2) : params.outputChannels;
  const expectedSeconds = source?.durationSeconds ?? null;
  if (expectedSeconds !== null) {
    if (maxSeconds !== null && expectedSeconds > maxSeconds) throw tooLong(expectedSeconds, maxSeconds);
    ctx.measured(expectedSeconds);
  }

  const stages: BlockProcessor[] = [];
  const writer = await PcmStreamWriter.create(
    join(task.workDir, `denoised.${params.outputFormat}`),
    params.outputFormat,
    outRate,
    outChannels,
  );
  let finished = false;
  try {
    // strength 0 is the identity: skip the denoiser so the original comes back untouched.
    const wet = params.strength > 0 ? await wetChain(denoiser, workRate, stages) : null;
    const toOutput = await createStreamResampler(workRate, outRate);
    stages.push(toOutput);
    const mixer = new DryWetMixer(params.strength);
    let decoded = 0;
    const blocks = decodeBlocks(file, { sampleRate: workRate, blockSamples: workRate * DENOISE_BLOCK_SECONDS, signal: ctx.signal });
    for await (const block of blocks) {
      if (ctx.signal.aborted) throw jobCancelled();
      decoded += block.length;
      if (maxSeconds !== null && decoded / workRate > maxSeconds) throw tooLong(decoded / workRate, maxSeconds);
      mixer.pushDry(block);
      const mixed = wet ? mixer.mix(wet.push(block)) : mixer.end();
      await writer.write(toOutput.push(mixed));
      if (expectedSeconds) ctx.progress(Math.min(0.99, decoded / workRate / expectedSeconds));
      // Lets the worker read a cancel message between blocks.
      await yieldToEvents();
    }
    if (ctx.signal.aborted) throw jobCancelled();
    if (decoded === 0) throw new JobError('audio_decode_failed', NO_AUDIO_SAMPLES);
    const tail = wet ? concat([mixer.mix(wet.finish()), mixer.end()]) : mixer.end();
    await writer.write(concat([toOutput.push(tail), toOutput.finish()]));
    await writer.close();
    finished = true;
    const durationSeconds = decoded / workRate;
    if (expectedSeconds === null) ctx.measured(durationSeconds);
    ctx.progress(1);
    return {
      result: { duration: durationSeconds },
      artifacts: [
        {
          path: join(task.workDir, `denoised.${params.outputFormat}`),
          contentType: writer.contentType,
          durationSeconds: writer.durationSeconds,
          sampleRate: outRate,
          channels: outChannels,
        },
      ],
      durationSeconds,
    };
  } finally {
    if (!finished) {
      await writer.abandon();
      for (const stage of stages) stage.release?.();
    }
  }
}

/** work rate → denoiser rate → denoiser → work rate, as one stream. */
async function wetChain(denoiser: DenoiserSpec, workRate: number, stages: BlockProcessor[]): Promise<BlockProcessor> {
  const chain: BlockProcessor[] = [];
  // Each stage joins `stages` as soon as it exists, so a failure while building the next one still frees it.
  for (const make of [() => createStreamResampler(workRate, denoiser.rate), denoiser.create, () => createStreamResampler(denoiser.rate, workRate)]) {
    const stage = await make();
    chain.push(stage);
    stages.push(stage);
  }
  return {
    push(input) {
      let x = input;
      for (const stage of chain) x = stage.push(x);
      return x;
    },
    finish() {
      let x: Float32Array = new Float32Array(0);
      for (const stage of chain) x = concat([stage.push(x), stage.finish()]);
      return x;
    },
  };
}
