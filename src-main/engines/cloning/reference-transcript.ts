/**
 * The words said in a recording: a reference sent without reference_text, or the speech a conversion re-voices. The
 * recognizer the service chose when it accepted the request (the best installed speech-to-text model,
 * EngineInput.transcriber) runs on it inside this worker, through its own engine module, like any speech-to-text job
 * but without a job of its own (nothing is charged or listed for it).
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { JobError } from '../../common/errors.js';
import type { TranscriptSegment } from '../../common/api-types.js';
import type { EngineContext, EngineTask, ReferenceTranscriber } from '../engine-types.js';
import { prefixedLog } from '../../common/log.js';

export interface Recognized {
  text: string;
  /** Utterances with their times in seconds, in order. */
  segments: TranscriptSegment[];
}

/** The recording's words and utterance times; `what` names it in the log (the reference, the recording). */
export async function recognizeRecording(file: string, transcriber: ReferenceTranscriber, task: EngineTask, ctx: EngineContext, what: string): Promise<Recognized> {
  if (!ctx.engine) throw new JobError('engine_failed', `no speech-to-text engine can run here to transcribe the ${what}`);
  const engine = await ctx.engine(transcriber.engine);
  const workDir = join(task.workDir, `transcript-${what}`);
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  try {
    const output = await engine.run(
      {
        jobId: `${task.jobId}-reference`,
        product: 'speech-to-text',
        modelId: transcriber.modelId,
        engine: transcriber.engine,
        engineConfig: transcriber.engineConfig,
        params: transcriber.params,
        input: { filePath: file },
        workDir,
      },
      { signal: ctx.signal, progress: () => {}, measured: () => {}, log: prefixedLog(ctx.log, `${what} transcript: `) },
    );
    return { text: (output.result.text ?? '').trim(), segments: output.result.segments ?? [] };
  } finally {
    engine.dispose?.();
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The words of a reference sent without reference_text; a reference in which no words are heard fails the job. */
export async function transcribeReference(file: string, transcriber: ReferenceTranscriber, task: EngineTask, ctx: EngineContext): Promise<string> {
  const { text } = await recognizeRecording(file, transcriber, task, ctx, 'reference');
  if (!text) {
    throw new JobError('invalid_params', `${transcriber.modelId} heard no words in the reference recording; send its words as reference_text, or a clearer recording`);
  }
  return text;
}
