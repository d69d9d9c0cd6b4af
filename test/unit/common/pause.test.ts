/** common/pause.ts: a wait that a stop ends early and quietly, leaving no timer or listener behind. */
import { describe, expect, it, vi } from 'vitest';
import { pause } from '../../../src-main/common/pause.js';

describe('pause', () => {
  it('resolves after the time when nothing aborts it, and takes its listener off the signal', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const remove = vi.spyOn(controller.signal, 'removeEventListener');
      let done = false;
      void pause(1_000, controller.signal).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
      expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
    } finally {
      vi.useRealTimers();
    }
  });

  it('resolves (does not reject) as soon as the signal aborts, and clears its timer', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const waiting = pause(60_000, controller.signal);
      controller.abort(new Error('stopping'));
      await expect(waiting).resolves.toBeUndefined();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('resolves at once for a signal that is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(pause(60_000, controller.signal)).resolves.toBeUndefined();
  });
});
