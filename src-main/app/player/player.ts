/**
 * The native audio player: 16-bit mono PCM to the default (or a chosen) output device through naudiodon
 * (PortAudio). The ONLY module that imports naudiodon. An adaptive jitter buffer (adaptive-jitter.ts) is held
 * before the device starts: small at first, larger after an underrun, when the player also holds the audio again
 * until the new target is queued (nothing is ever dropped). Audio is then fed only `maxAheadMs` ahead of the
 * playback position (the sound server plays out whatever it was given), so stop() is heard at once; end() pads with
 * silence so the last syllable is heard (the device cuts the last ~2 buffers otherwise). Device problems become
 * typed 'error' events, never exceptions.
 *
 * Opening a device costs 30–100 ms while PortAudio is not initialised (Pa_Initialize probes every ALSA device,
 * JACK included) and ~3–10 ms while another stream keeps it initialised: the live playback therefore opens its next
 * player ahead of time (live-playback.ts).
 */
import { EventEmitter } from 'node:events';
import { AdaptiveJitter } from './adaptive-jitter.js';
import { loadNaudiodon, type IoStreamWrite, type Naudiodon } from './naudiodon-loader.js';
import { DEFAULT_PLAYER_OPTIONS, PLAYER_FEED_INTERVAL_MS, PlayerError, type Player, type PlayerOptions } from './player-types.js';

/**
 * Output devices PortAudio sees (for a device picker). Rejects with PlayerError when naudiodon cannot load. Listing
 * initialises PortAudio on this thread, so, like an open, it waits for closes in flight (see closesInFlight).
 */
export async function listOutputDevices(): Promise<{ id: number; name: string }[]> {
  if (closesInFlight > 0) await new Promise<void>((resolve) => opensWaiting.push(resolve));
  try {
    return loadNaudiodon()
      .getDevices()
      .filter((d) => d.maxOutputChannels > 0)
      .map((d) => ({ id: d.id, name: d.name }));
  } catch (cause) {
    throw new PlayerError('audio_unavailable', `audio output is unavailable: ${String(cause)}`, { cause });
  }
}

/**
 * With less than this much audio left at the device and no whole device buffer to give it, the device is about to
 * run dry: it gets a buffer of silence (two feed intervals, so a timer running a little late is still in time).
 */
const STARVING_MS = 2 * PLAYER_FEED_INTERVAL_MS;
/** Chunks naudiodon may queue for the device. */
const NATIVE_MAX_QUEUE = 64;

/**
 * PortAudio is not thread-safe: naudiodon opens a stream (Pa_Initialize, Pa_OpenStream) on this thread but closes it
 * (Pa_CloseStream, Pa_Terminate) on libuv's thread pool, and the two at once crash the process (a SIGSEGV in
 * Pa_Initialize, seen when a player was opened while the previous one closed). So a device is never opened while a
 * close is in flight: the open waits (audio written meanwhile is queued), and runs once the closes have settled.
 */
let closesInFlight = 0;
const opensWaiting: (() => void)[] = [];

/** A close that never reports back (a stream broken mid-close) must not hold every later open: settled after this. */
const CLOSE_SETTLE_MAX_MS = 5000;

function closeStarted(): () => void {
  closesInFlight++;
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    closesInFlight--;
    if (closesInFlight === 0) for (const open of opensWaiting.splice(0)) open();
  };
  const timer = setTimeout(settle, CLOSE_SETTLE_MAX_MS);
  timer.unref();
  return settle;
}

class NativePlayer extends EventEmitter implements Player {
  readonly sampleRate: number;
  private readonly options: Required<Omit<PlayerOptions, 'jitter'>>;
  private readonly jitter: AdaptiveJitter;
  /** Holding audio until the jitter target is queued: before the start, and again after an underrun. */
  private buffering = true;
  /** fedSamples at the last underrun (or 0): what was fed after it played cleanly. */
  private cleanFrom = 0;
  private stream: IoStreamWrite | null = null;
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private started = false;
  private finished = false;
  private ending = false;
  private streamEnded = false;
  private wantDrain = false;
  /** Samples handed to the device, and when the device position was last known to be `baseSamples`. */
  private fedSamples = 0;
  private baseSamples = 0;
  private baseTime = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Set once the stream was ended: naudiodon then closes it on the thread pool, done at 'finished'. */
  private closeSettled: (() => void) | null = null;

  constructor(options: PlayerOptions) {
    super();
    const { jitter, ...rest } = options;
    this.options = { ...DEFAULT_PLAYER_OPTIONS, ...rest };
    this.sampleRate = options.sampleRate;
    this.jitter = jitter ?? new AdaptiveJitter({ startMs: this.options.jitterMs, maxMs: Math.max(400, this.options.jitterMs) });
    try {
      if (!Number.isInteger(options.sampleRate) || options.sampleRate < 8000 || options.sampleRate > 192_000) {
        throw new PlayerError('invalid_audio', `sampleRate must be an integer 8000–192000 (got ${options.sampleRate})`);
      }
    } catch (error) {
      this.fail(error instanceof PlayerError ? error : new PlayerError('device_unavailable', `cannot open the audio device: ${String(error)}`, { cause: error }));
      return;
    }
    if (closesInFlight > 0) opensWaiting.push(() => this.openNow());
    else this.openNow();
  }

  /** Opens the device (unless stopped meanwhile), and starts it if audio was already due to play. */
  private openNow(): void {
    if (this.finished) return;
    try {
      this.open();
    } catch (error) {
      this.fail(error instanceof PlayerError ? error : new PlayerError('device_unavailable', `cannot open the audio device: ${String(error)}`, { cause: error }));
      return;
    }
    if (this.started) {
      this.started = false;
      this.startDevice();
    }
  }

  private open(): void {
    let lib: Naudiodon;
    try {
      lib = loadNaudiodon();
    } catch (cause) {
      throw new PlayerError('audio_unavailable', `audio output is unavailable (naudiodon): ${String(cause)}`, { cause });
    }
    const { deviceId, framesPerBuffer, sampleRate } = this.options;
    if (deviceId !== -1 && !lib.getDevices().some((d) => d.id === deviceId && d.maxOutputChannels > 0)) {
      throw new PlayerError('device_unavailable', `no output device with id ${deviceId}`);
    }
    const stream = lib.AudioIO({
      // maxQueue: chunks naudiodon holds for the device (default 2). The player bounds the audio handed over itself
      // (maxAheadMs); a write finding the native queue full would wait in libuv's thread pool.
      outOptions: { channelCount: 1, sampleFormat: lib.SampleFormat16Bit, sampleRate, deviceId, framesPerBuffer, maxQueue: NATIVE_MAX_QUEUE, closeOnError: false },
    });
    // naudiodon logs every stream error itself; ours are reported as typed events.
    stream.removeAllListeners('error');
    stream.on('error', (error: unknown) => this.fail(new PlayerError('device_error', `the audio device failed: ${String(error)}`, { cause: error })));
    stream.on('finished', () => {
      this.closeSettled?.();
      this.finish(false);
    });
    this.stream = stream;
  }

  private ms(ms: number): number {
    return Math.round((this.sampleRate * ms) / 1000) * 2;
  }

  /** Audio to hold before starting or resuming: the jitter target, and at least one device buffer. */
  private holdBytes(): number {
    return Math.max(this.ms(this.jitter.targetMs), this.options.framesPerBuffer * 2);
  }

  write(pcm: Int16Array | Buffer): boolean {
    if (this.finished || this.ending) return false;
    const bytes = Buffer.isBuffer(pcm) ? pcm : Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    if (bytes.length % 2 !== 0) {
      this.fail(new PlayerError('invalid_audio', 'PCM16 data must have an even number of bytes'));
      return false;
    }
    this.queue.push(Buffer.from(bytes));
    this.queuedBytes += bytes.length;
    if (!this.started) {
      if (this.queuedBytes >= this.holdBytes()) this.startDevice();
    } else this.feed();
    const ok = this.queuedBytes < this.ms(this.options.queueHighMs);
    if (!ok) this.wantDrain = true;
    return ok;
  }

  end(): void {
    if (this.finished || this.ending) return;
    this.ending = true;
    const pad = Buffer.alloc(this.options.padBuffers * this.options.framesPerBuffer * 2);
    this.queue.push(pad);
    this.queuedBytes += pad.length;
    if (!this.started) this.startDevice();
    else this.feed();
  }

  stop(): void {
    if (this.finished) return;
    const stream = this.stream;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.finish(true);
    if (stream) this.close(stream);
  }

  /**
   * The first audio is handed over before the device starts: Pa_StartStream blocks this thread for 1–50 ms on a
   * busy machine (PulseAudio round trips), and a device started first would wait that long for its first chunk.
   */
  private startDevice(): void {
    this.started = true;
    if (!this.stream) return; // still waiting to open: openNow() starts it
    this.buffering = false;
    this.baseTime = performance.now();
    this.feed();
    if (this.finished) return;
    try {
      this.stream!.start();
    } catch (error) {
      this.fail(new PlayerError('device_error', `the audio device did not start: ${String(error)}`, { cause: error }));
      return;
    }
    // The clock of the playback position starts when the device does (Pa_StartStream may have taken a while).
    this.baseTime = performance.now();
    this.emit('started');
  }

  /**
   * Hands the device audio up to maxAheadMs ahead of where it is playing, in whole device buffers: naudiodon's device
   * callback waits, mid-buffer, for the rest of a buffer it was given only part of, and the device then runs dry and
   * drops samples as it recovers. So a partial buffer waits for more audio, or for end(). When the device is about to
   * run dry while more audio is to come (an underrun: the source fell behind real time), it is given a buffer of
   * silence instead, and the audio is held until the jitter buffer's new, larger target is queued; nothing is dropped.
   */
  private feed(): void {
    if (this.finished || !this.stream) return;
    const now = performance.now();
    const period = this.options.framesPerBuffer;
    let played = this.baseSamples + ((now - this.baseTime) * this.sampleRate) / 1000;
    if (this.fedSamples > 0 && played > this.fedSamples) {
      // Ran dry all the same (this thread was held up longer than the cushion): it resumes from what is fed next.
      this.baseSamples = this.fedSamples;
      this.baseTime = now;
      played = this.fedSamples;
      if (!this.ending && !this.buffering) this.underrun();
    }
    if (this.buffering && (this.ending || this.queuedBytes >= this.holdBytes())) this.buffering = false;
    const aheadLimit = played + (this.options.maxAheadMs * this.sampleRate) / 1000;
    if (!this.buffering && this.fedSamples < aheadLimit) {
      // One write for all of it: each write is a hop through libuv's thread pool and back, which a busy machine
      // can delay by tens of ms, and the device must never wait for one.
      const periods = Math.ceil((aheadLimit - this.fedSamples) / period);
      const whole = Math.floor(this.queuedBytes / (period * 2));
      const bytes = this.ending && whole < periods ? this.queuedBytes : Math.min(whole, periods) * period * 2;
      if (bytes > 0) this.hand(this.take(bytes));
    }
    const starving = (STARVING_MS * this.sampleRate) / 1000;
    if (!this.ending && this.fedSamples - played < starving) {
      if (!this.buffering) this.underrun();
      // While the audio is held, the device is kept a buffer further ahead in silence: it takes a buffer ahead of
      // what is heard, and a sound server that runs dry loses ~10 ms as it restarts.
      while (this.fedSamples - played < period + starving) this.hand(Buffer.alloc(period * 2));
    }
    if (this.wantDrain && this.queuedBytes < this.ms(this.options.queueHighMs)) {
      this.wantDrain = false;
      this.emit('drain');
    }
    if (this.queue.length === 0 && this.ending && !this.streamEnded) {
      this.streamEnded = true;
      this.closeSettled = closeStarted();
      this.stream.end();
    }
    // While playing, the device is watched even with nothing queued (to notice in time that it is running dry).
    if (!this.timer && !this.streamEnded) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.feed();
      }, PLAYER_FEED_INTERVAL_MS);
    }
  }

  private underrun(): void {
    this.jitter.playedCleanly(((this.fedSamples - this.cleanFrom) * 1000) / this.sampleRate);
    this.cleanFrom = this.fedSamples;
    this.jitter.underrun();
    this.buffering = true;
    this.emit('underrun', { targetMs: this.jitter.targetMs });
  }

  private hand(chunk: Buffer): void {
    this.fedSamples += chunk.length / 2;
    this.stream!.write(chunk);
  }

  /** The first `bytes` of the queue (bytes ≤ queuedBytes). */
  private take(bytes: number): Buffer {
    const parts: Buffer[] = [];
    let need = bytes;
    while (need > 0) {
      const head = this.queue[0]!;
      if (head.length <= need) {
        parts.push(this.queue.shift()!);
        need -= head.length;
      } else {
        parts.push(head.subarray(0, need));
        this.queue[0] = head.subarray(need);
        need = 0;
      }
    }
    this.queuedBytes -= bytes;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
  }

  /**
   * Closes the stream now, whatever state it is in (never started, playing, broken); never throws. Not after end():
   * naudiodon then closes it itself once the last write is in, and a second close would free it twice; what it
   * still plays is at most maxAheadMs.
   */
  private close(stream: IoStreamWrite): void {
    if (this.streamEnded) return;
    this.streamEnded = true;
    const settled = closeStarted();
    try {
      stream.quit().then(settled, settled);
    } catch {
      settled(); // already broken
    }
  }

  private finish(stopped: boolean): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    if (!stopped) this.jitter.playedCleanly(((this.fedSamples - this.cleanFrom) * 1000) / this.sampleRate);
    this.emit('ended', { stopped });
  }

  private fail(error: PlayerError): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    const stream = this.stream;
    this.stream = null;
    // Listeners attached right after createPlayer() must still hear an error raised in the constructor.
    process.nextTick(() => {
      if (this.listenerCount('error') > 0) this.emit('error', error);
      this.emit('ended', { stopped: true });
    });
    if (stream) this.close(stream);
  }
}



/** Opens the output device. Never throws: problems arrive as an 'error' event (PlayerError with a code). */
export function createPlayer(options: PlayerOptions): Player {
  return new NativePlayer(options);
}
