import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineContext, EngineTask } from '../../src-main/engines/engine-types.js';
import { silentLog } from '../../src-main/common/log.js';

export interface TestContext extends EngineContext {
  progressValues: number[];
  controller: AbortController;
}

export function testContext(): TestContext {
  const controller = new AbortController();
  const progressValues: number[] = [];
  return {
    controller,
    progressValues,
    signal: controller.signal,
    progress: (f) => progressValues.push(f),
    measured: () => {},
    log: silentLog,
  };
}

export function tempWorkDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-tts-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function ttsTask(workDir: string, text: string, params: Record<string, unknown>, over: Partial<EngineTask> = {}): EngineTask {
  return {
    jobId: 'job_test',
    product: 'text-to-speech',
    modelId: 'espeak-ng',
    engine: 'espeak',
    engineConfig: {},
    params,
    input: { text },
    workDir,
    ...over,
  };
}
