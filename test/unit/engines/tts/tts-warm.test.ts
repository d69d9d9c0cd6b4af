/**
 * warmTts (engines/tts/tts-run.ts): the warm-up is a job through the engine's own run, in a private temporary folder
 * removed afterwards, repeated while each round is clearly faster than the best before it (two to five rounds), and
 * it stops as soon as the worker is given a job. The real eSpeak engine warms and then speaks a job.
 */
import { existsSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineContext, EngineOutput, EngineTask } from '../../../../src-main/engines/engine-types.js';
import createEspeakEngine from '../../../../src-main/engines/tts/espeak-engine.js';
import { warmTts } from '../../../../src-main/engines/tts/tts-run.js';
import { tempWorkDir, testContext, ttsTask } from '../../../helpers/tts-context.js';

const NOTHING: EngineOutput = { result: {}, artifacts: [], durationSeconds: 1 };

let clock = 0;
beforeEach(() => {
  // Round times are the script's, not this machine's: performance.now() follows a clock the runs move.
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A run that takes `ms[i]` on its i-th call (the last value after that) and records what it was asked. */
function scriptedRun(ms: number[], onRun?: (task: EngineTask, ctx: EngineContext, call: number) => void) {
  const seen: { task: EngineTask; folderExisted: boolean; mode: number }[] = [];
  const run = async (task: EngineTask, ctx: EngineContext): Promise<EngineOutput> => {
    const call = seen.length;
    seen.push({ task, folderExisted: existsSync(task.workDir), mode: statSync(task.workDir).mode & 0o777 });
    onRun?.(task, ctx, call);
    await new Promise((resolve) => setTimeout(resolve, 5));
    clock += ms[Math.min(call, ms.length - 1)]!;
    if (ctx.signal.aborted) throw new Error('cancelled');
    return NOTHING;
  };
  return { run, seen };
}

describe('warmTts', () => {
  it("speaks through the engine's run with the given params, in a private folder removed afterwards", async () => {
    const { run, seen } = scriptedRun([300, 100, 95]);
    await warmTts(run, { engine: 'espeak', params: { voice: 'en-us', speed: 1, pitch: 50 } });
    expect(seen.length).toBe(3); // 300 → 100 (clearly faster: again) → 95 (not: warm)
    const { task } = seen[0]!;
    expect(task).toMatchObject({ engine: 'espeak', product: 'text-to-speech', params: { voice: 'en-us', speed: 1, pitch: 50 } });
    expect(task.input.text).toMatch(/quick brown fox.*\d/);
    expect(seen.every((s) => s.folderExisted && s.mode === 0o700)).toBe(true);
    expect(existsSync(task.workDir)).toBe(false);
  });

  it('stops after five rounds even while it keeps getting faster', async () => {
    const { run, seen } = scriptedRun([400, 200, 100, 50, 25, 12, 6]);
    await warmTts(run, { engine: 'espeak', params: {} });
    expect(seen.length).toBe(5);
  });

  it('stops at once when the worker is given a job, without failing', async () => {
    const stop = new AbortController();
    const { run, seen } = scriptedRun([200], (_task, _ctx, call) => {
      if (call === 0) stop.abort();
    });
    await warmTts(run, { engine: 'espeak', params: {} }, stop.signal);
    expect(seen.length).toBe(1);
    expect(existsSync(seen[0]!.task.workDir)).toBe(false);

    const before = scriptedRun([10]);
    await warmTts(before.run, { engine: 'espeak', params: {} }, stop.signal);
    expect(before.seen.length).toBe(0);
  });

  it('reports a run that fails on its own (the worker logs it)', async () => {
    const failing = async (): Promise<EngineOutput> => {
      throw new Error('no voice');
    };
    await expect(warmTts(failing, { engine: 'espeak', params: {} })).rejects.toThrow('no voice');
  });

  it('eSpeak warms through its own job path, and a job after it speaks', async () => {
    vi.restoreAllMocks();
    const engine = await createEspeakEngine();
    await engine.warm!();
    const work = tempWorkDir();
    try {
      const out = await engine.run(ttsTask(work.dir, 'Warm and ready.', { voice: 'en-us', speed: 1, pitch: 50 }), testContext());
      expect(out.durationSeconds).toBeGreaterThan(0.3);
    } finally {
      work.remove();
      await engine.dispose?.();
    }
  });
});
