/**
 * The test engine (registered only with VOXDESK_TEST_ENGINES=1): params choose what a worker does, so tests can
 * crash, kill, hang or slow a real worker process. `{"behaviour": "succeed"|"sleep"|"crash"|"exit"|"hang"|"fail"|
 * "segments", "ms": N (sleep length, default 1000), "seconds": S (billed audio length, default 1), "artifact": true
 * (write a tiny WAV), "code"/"message" (the failure of "fail", default engine_failed)}`. "segments" is a
 * checkpointing transcription: `count` segments (default 5) of 10 s each, `ms` apart, continuing after `resumeAfter`;
 * `bad_index_at: K` makes a run that starts from the beginning send its segment K with a wrong index (once);
 * `fail_at: K` makes such a run fail (engine_failed) before its segment K, so a retry continues and succeeds; `text`
 * gives every segment that text instead of "segment N".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJobFailureCode, jobCancelled, JobError } from '../common/errors.js';
import { assembleTranscript } from './asr/transcript-assembly.js';
import { pcm16WavHeader } from './audio/wav-header.js';
import type { TranscriptOptions } from './asr/transcript.js';
import type { Engine, EngineContext, EngineFactory, EngineOutput, EngineTask, RecognizedSegment } from './engine-types.js';

const SAMPLE_RATE = 16_000;

/** 0.1 s of a quiet 440 Hz tone, PCM16 mono WAV. */
function tinyWav(): Buffer {
  const samples = SAMPLE_RATE / 10;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(1000 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE)), i * 2);
  return Buffer.concat([pcm16WavHeader(SAMPLE_RATE, 1, pcm.length), pcm]);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(jobCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(jobCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function output(task: EngineTask): EngineOutput {
  const seconds = typeof task.params.seconds === 'number' ? task.params.seconds : 1;
  const artifacts: EngineOutput['artifacts'] = [];
  if (task.params.artifact === true) {
    const path = join(task.workDir, 'output.wav');
    writeFileSync(path, tinyWav());
    artifacts.push({ path, contentType: 'audio/wav', durationSeconds: 0.1, sampleRate: SAMPLE_RATE, channels: 1 });
  }
  return { result: { text: `test ${task.jobId}` }, artifacts, durationSeconds: seconds };
}

async function run(task: EngineTask, ctx: EngineContext): Promise<EngineOutput> {
  const behaviour = typeof task.params.behaviour === 'string' ? task.params.behaviour : 'succeed';
  const ms = typeof task.params.ms === 'number' ? task.params.ms : 1000;
  switch (behaviour) {
    case 'succeed':
      // A line of the job's log, as an engine writes one (the pool writes it into the service's Log).
      if (typeof task.params.log === 'string') ctx.log.info(task.params.log);
      return output(task);
    case 'sleep': {
      const steps = 10;
      for (let i = 1; i <= steps; i++) {
        await sleep(ms / steps, ctx.signal);
        ctx.progress(i / steps);
      }
      return output(task);
    }
    case 'crash':
      process.kill(process.pid, 'SIGSEGV');
      return new Promise<never>(() => {});
    case 'exit':
      process.exit(255);
      break;
    case 'hang':
      // Ignores cancellation on purpose: the pool must kill the worker.
      return new Promise<never>(() => {});
    case 'segments':
      return segments(task, ctx, ms);
    case 'fail':
      if (task.params.code !== undefined && !isJobFailureCode(task.params.code)) {
        throw new JobError('invalid_params', `code ${String(task.params.code)} is not a job error code (common/errors.ts JOB_ERROR_CODES)`);
      }
      throw new JobError(task.params.code ?? 'engine_failed', typeof task.params.message === 'string' ? task.params.message : 'the test engine failed as asked');
  }
  throw new JobError('invalid_params', `unknown test behaviour ${behaviour}`);
}

/** A transcription that checkpoints like the speech-to-text engines do (see the file's docblock). */
async function segments(task: EngineTask, ctx: EngineContext, ms: number): Promise<EngineOutput> {
  const count = typeof task.params.count === 'number' ? task.params.count : 5;
  const badAt = typeof task.params.bad_index_at === 'number' && !task.resumeAfter ? task.params.bad_index_at : -1;
  const failAt = typeof task.params.fail_at === 'number' && !task.resumeAfter ? task.params.fail_at : -1;
  const duration = count * 10;
  ctx.measured(duration);
  const pieces: RecognizedSegment[] = [];
  for (let index = task.resumeAfter ? task.resumeAfter.index + 1 : 0; index < count; index++) {
    await sleep(ms, ctx.signal);
    if (index === failAt) throw new JobError('engine_failed', `the test engine failed before segment ${index} as asked`);
    const text = typeof task.params.text === 'string' ? task.params.text : `segment ${index}`;
    const piece: RecognizedSegment = { index: index === badAt ? index + 1 : index, start: index * 10, end: index * 10 + 9, text };
    pieces.push(piece);
    ctx.segment?.(piece, ((index + 1) / count) * 0.99);
  }
  const options: TranscriptOptions = { duration, language: 'en', responseFormat: 'verbose_json', granularity: 'segment' };
  return { result: assembleTranscript(pieces, options, null), artifacts: [], durationSeconds: duration, transcript: { options, speakerTurns: null, segmentCount: count } };
}

const factory: EngineFactory = (): Engine => ({ run });
export default factory;
