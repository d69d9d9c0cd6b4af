/**
 * The words said in a reference recording, when the request did not give them (reference_text): the recognizer the
 * service chose when it accepted the request (the best installed speech-to-text model, EngineInput.transcriber) runs
 * on the reference inside this worker, through its own engine module, like any speech-to-text job but without a job of
 * its own (nothing is charged or listed for it).
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { JobError } from '../../common/errors.js';
import { loadEngineFactory } from '../engine-registry.js';
import type { EngineContext, EngineTask, ReferenceTranscriber } from '../engine-types.js';

export async function transcribeReference(file: string, transcriber: ReferenceTranscriber, task: EngineTask, ctx: EngineContext): Promise<string> {
  const engine = await (await loadEngineFactory(transcriber.engine))();
  const workDir = join(task.workDir, 'reference-transcript');
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
      { signal: ctx.signal, progress: () => {}, measured: () => {}, log: (line) => ctx.log(`reference transcript: ${line}`) },
    );
    const text = (output.result.text ?? '').trim();
    if (!text) {
      throw new JobError('invalid_params', `${transcriber.modelId} heard no words in the reference recording; send its words as reference_text, or a clearer recording`);
    }
    return text;
  } finally {
    engine.dispose?.();
    await rm(workDir, { recursive: true, force: true });
  }
}
