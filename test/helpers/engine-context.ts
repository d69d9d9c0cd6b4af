/** A recording EngineContext for calling engines directly (the worker process gives the real one). */
import { join } from 'node:path';
import { asrFamilyDefinition } from '../../src-main/engines/asr/asr-families.js';
import type { EngineContext, EngineTask } from '../../src-main/engines/engine-types.js';
import { SHARED } from './system.js';
import { silentLog } from '../../src-main/common/log.js';

export interface RecordingContext extends EngineContext {
  events: { kind: 'progress' | 'measured'; value: number }[];
  controller: AbortController;
}

export function recordingContext(onProgress?: (fraction: number, controller: AbortController) => void): RecordingContext {
  const controller = new AbortController();
  const events: RecordingContext['events'] = [];
  return {
    controller,
    events,
    signal: controller.signal,
    progress: (value) => {
      events.push({ kind: 'progress', value });
      onProgress?.(value, controller);
    },
    measured: (value) => events.push({ kind: 'measured', value }),
    log: silentLog,
  };
}

export function sttTask(filePath: string, engine: EngineTask['engine'], engineConfig: Record<string, unknown>, params: Record<string, unknown> = {}): EngineTask {
  return {
    jobId: 'job-test',
    product: 'speech-to-text',
    modelId: 'model-test',
    engine,
    engineConfig,
    params,
    input: { filePath, fileName: filePath.split('/').pop() ?? 'audio' },
    workDir: '/nonexistent-workdir-engines-must-not-need-it',
  };
}

/** Word error rate: word-level Levenshtein distance / reference words (lower case, punctuation removed). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const norm = (s: string): string[] =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9' ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const ref = norm(reference);
  const hyp = norm(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return ref.length === 0 ? (hyp.length === 0 ? 0 : 1) : previous[hyp.length]! / ref.length;
}

/** The engine config of the tiny NeMo CTC model of ../shared/models/tiny, read through Silero VAD at `vadModel`. */
export function tinyNemoCtcConfig(vadModel: string): Record<string, unknown> {
  return asrFamilyDefinition('nemo-ctc', {
    id: 'tiny-nemo-ctc',
    dir: join(SHARED, 'models/tiny/tiny-nemo-ctc'),
    languages: ['en'],
    files: { model: 'model.onnx', tokens: 'tokens.txt' },
    support: { sileroVad: vadModel },
  }).engineConfig;
}
