/**
 * PortAudio is not thread-safe, and it is one per process: naudiodon opens a stream (Pa_Initialize, Pa_OpenStream) on
 * the main thread but closes it (Pa_CloseStream, Pa_Terminate) on libuv's thread pool, and the two at once crash the
 * process (a SIGSEGV in Pa_Initialize, seen when a player was opened while the previous one closed). So every open —
 * and a device listing, which initialises PortAudio too — waits until no close is in flight. This is that one gate of
 * the process; player.ts passes through it.
 */

/** A close that never reports back (a stream broken mid-close) must not hold every later open: settled after this. */
const CLOSE_SETTLE_MAX_MS = 5000;

class PortAudioGate {
  private closing = 0;
  private readonly waiting: (() => void)[] = [];

  /** Runs `open` now when no close is in flight, else once the closes have settled. */
  whenIdle(open: () => void): void {
    if (this.closing === 0) open();
    else this.waiting.push(open);
  }

  /** Resolves when no close is in flight. */
  idle(): Promise<void> {
    return new Promise((resolve) => this.whenIdle(resolve));
  }

  /** A close starts; call the answer once it has finished (twice is harmless). */
  closeStarted(): () => void {
    this.closing++;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.closing--;
      if (this.closing === 0) for (const open of this.waiting.splice(0)) open();
    };
    const timer = setTimeout(settle, CLOSE_SETTLE_MAX_MS);
    timer.unref();
    return settle;
  }
}

export const portAudio = new PortAudioGate();
