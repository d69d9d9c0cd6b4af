/** Runs a denoise engine in the test process, as a worker would, on a file in a fresh work dir. */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineContext, EngineOutput } from '../../src-main/engines/engine-types.js';
import createGtcrnEngine from '../../src-main/engines/denoise/gtcrn-engine.js';
import createRnnoiseEngine from '../../src-main/engines/denoise/rnnoise-engine.js';
import { GTCRN_MODEL } from './denoise-fixtures.js';
import { silentLog } from '../../src-main/common/log.js';

export type DenoiserKind = 'rnnoise' | 'gtcrn';
export const DENOISERS: DenoiserKind[] = ['rnnoise', 'gtcrn'];

export interface RunOptions {
  params?: Record<string, unknown>;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  engineConfig?: Record<string, unknown>;
}

export interface RunResult {
  output: EngineOutput;
  progress: number[];
  measured: number[];
}

export async function runDenoiser(kind: DenoiserKind, file: string, workRoot: string, options: RunOptions = {}): Promise<RunResult> {
  const engine = await (kind === 'rnnoise' ? createRnnoiseEngine : createGtcrnEngine)();
  const progress: number[] = [];
  const measured: number[] = [];
  const ctx: EngineContext = {
    signal: options.signal ?? new AbortController().signal,
    progress: (f) => {
      progress.push(f);
      options.onProgress?.(f);
    },
    measured: (s) => measured.push(s),
    log: silentLog,
  };
  const output = await engine.run(
    {
      jobId: `job-${kind}`,
      product: 'voice-isolator',
      modelId: kind === 'rnnoise' ? 'rnnoise' : 'gtcrn-simple',
      engine: kind,
      engineConfig: options.engineConfig ?? (kind === 'gtcrn' ? { model: GTCRN_MODEL } : {}),
      params: options.params ?? {},
      input: { filePath: file, fileName: 'input.wav' },
      workDir: mkdtempSync(join(workRoot, `${kind}-`)),
    },
    ctx,
  );
  return { output, progress, measured };
}
