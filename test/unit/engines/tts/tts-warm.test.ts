/**
 * warmTts (engines/tts/tts-run.ts): the warm-up is a job through the engine's own run, in a private temporary folder
 * removed afterwards, repeated until two rounds in a row agree (three to six rounds: a round slowed by another
 * process does not end it), and it stops as soon as the worker is given a job. The real eSpeak engine warms and then speaks a job.
 */
import { existsSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineContext, EngineOutput, EngineTask } from '../../../../src-main/engines/engine-types.js';
import createEspeakEngine from '../../../../src-main/engines/tts/espeak-engine.js';
import { warmSettled, warmTts } from '../../../../src-main/engines/tts/tts-run.js';
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
    expect(seen.length).toBe(3); // 300 → 100 → 95: the last two agree
    const { task } = seen[0]!;
    expect(task).toMatchObject({ engine: 'espeak', product: 'text-to-speech', params: { voice: 'en-us', speed: 1, pitch: 50 } });
    expect(task.input.text).toMatch(/quick brown fox.*\d/);
    expect(seen.every((s) => s.folderExisted && s.mode === 0o700)).toBe(true);
    expect(existsSync(task.workDir)).toBe(false);
  });

  it('stops after six rounds even while it keeps getting faster', async () => {
    const { run, seen } = scriptedRun([400, 200, 100, 50, 25, 12, 6]);
    await warmTts(run, { engine: 'espeak', params: {} });
    expect(seen.length).toBe(6);
  });

  it('goes on past a round slowed by another process, until two rounds in a row agree', async () => {
    // The old rule stopped at 160 (not faster than the best, 100): eSpeak was still being optimised.
    const { run, seen } = scriptedRun([300, 100, 160, 60, 55]);
    await warmTts(run, { engine: 'espeak', params: {} });
    expect(seen.length).toBe(5);
  });

  it('settles after at least three rounds, when the last two are within 1.25× of each other', () => {
    expect(warmSettled([])).toBe(false);
    expect(warmSettled([100, 100])).toBe(false);
    expect(warmSettled([300, 100, 125])).toBe(true);
    expect(warmSettled([300, 100, 126])).toBe(false);
    expect(warmSettled([300, 126, 100])).toBe(false);
    expect(warmSettled([300, 125, 100])).toBe(true);
    expect(warmSettled([6, 5, 4, 3, 2, 1])).toBe(true);
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
